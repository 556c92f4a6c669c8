// The session direct path (on with MCP_HTTP_FAST_PATH): a plain POST to a live 2025 session carrying one tools/call,
// resources/read or prompts/get (no progress token, no retry fields) runs straight through Kiln's
// operation runner (app.runSessionCall) instead of the SDK's web transport and dispatch, and its answer is written
// as that transport writes it (session-exchange.ts). It takes only what the transport would pass unchanged to the
// session's server; anything else, and an input_required round (the SDK's 2025 shim fulfils it), goes to the SDK.
// test/http/session-direct-diff.test.ts holds it to the SDK path's exact answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type AuthInfo,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  isJsonContentType,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';
import {
  type AppPort,
  CallCancellation,
  isLevelEnabled,
  type SessionRequest,
  sessionCallOf,
} from '../../../src/host/index.js';
import { stampedHttpFacts, webRequestOf } from '../request-facts.js';
import type { LiveSession } from './session-copies.js';
import { frameOf, KeepAliveTicker, SessionExchange, streamHeaders } from './session-exchange.js';

export class SessionDirectCalls {
  private readonly keepAlive: KeepAliveTicker;

  constructor(
    private readonly app: AppPort,
    keepAliveMs: number,
  ) {
    this.keepAlive = new KeepAliveTicker(keepAliveMs);
  }

  /** The call, when this POST to `session` is one the direct path serves; undefined leaves it to the SDK. */
  plan(session: LiveSession, req: IncomingMessage, body: unknown): SessionRequest | undefined {
    const call = sessionCallOf(body);
    if (!call) return undefined;
    const { transport, server } = session;
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'object' || !transport.acceptsProtocolVersion(version)) return undefined;
    if (!isJsonContentType(req.headers['content-type'] ?? null)) return undefined;
    // The session answered initialize (a copy is adopted before its initialize is handled).
    if (transport.sessionId !== session.id || server.getClientCapabilities() === undefined) return undefined;
    if (transport.isServing(call.id)) return undefined;
    return call;
  }

  /**
   * A resume (GET with Last-Event-ID) of a stream a direct call's ctx.closeStream() ended while the call runs: the
   * stored frames, then what the call sends next, its answer last. False for any other resume, which the session's
   * transport serves.
   */
  async resume(session: LiveSession, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const lastEventId = req.headers['last-event-id'];
    const store = session.transport.frameStore;
    if (typeof lastEventId !== 'string' || !store) return false;
    const open = () => {
      if (res.headersSent) return;
      res.writeHead(200, streamHeaders(session.id));
      res.flushHeaders();
    };
    const resumed = await store.resumeDetached(lastEventId, {
      send: (eventId, message) => {
        open();
        if (!res.writableEnded) res.write(frameOf(message, eventId));
      },
      end: () => {
        open();
        if (!res.writableEnded) res.end();
      },
    });
    if (resumed) open();
    return resumed;
  }

  /** Serves a planned call; the exchange goes on after this returns, until its answer or the client's close. */
  serve(session: LiveSession, call: SessionRequest, req: IncomingMessage, res: ServerResponse, body: unknown): void {
    const message = body as JSONRPCRequest;
    const { id } = call;
    const { transport, server } = session;
    const authInfo = (req as IncomingMessage & { auth?: AuthInfo }).auth;
    const cancellation = new CallCancellation();
    const version = (req.headers['mcp-protocol-version'] as string | undefined) ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    // A client that goes away does not cancel a 2025 call (the SDK's transport lets it finish); a cancellation does.
    const exchange = new SessionExchange(res, {
      sessionId: session.id,
      keepAlive: this.keepAlive,
      eventStore: transport.frameStore,
      priming: transport.primesStreamsFor(version),
      retryMs: transport.primingRetryMs,
      onCancel: () => {
        transport.closeExchange(id, exchange);
        cancellation.abort(new Error('request cancelled'));
      },
    });
    // Registered until answered: what the server sends about the request meanwhile is stored even once the client left.
    transport.openExchange(id, exchange);
    this.app
      .runSessionCall({
        // Field by field: spreading the call and adding keys would take V8's slow path for objects.
        method: call.method,
        key: call.key,
        arguments: call.arguments,
        id,
        server,
        sessionId: session.id,
        authInfo,
        meta: call.meta,
        signal: cancellation,
        closeStream: exchange.canCloseStream ? () => exchange.closeStream() : undefined,
        http: stampedHttpFacts(req),
        log: (level, data) => {
          // As the session's server filters a request's log lines: against the level logging/setLevel set.
          const threshold = transport.logLevel;
          if (!server.getCapabilities().logging) return Promise.resolve();
          if (threshold !== undefined && !isLevelEnabled(level, threshold)) return Promise.resolve();
          return server.notification(
            { method: 'notifications/message', params: { level, data } },
            { relatedRequestId: id },
          );
        },
      })
      .then((answer) => {
        if (cancellation.aborted) return;
        // The SDK's 2025 shim turns the round into requests to the client; the server runs the call again for it.
        if (answer.inputRequired) return transport.dispatchOnExchange(message, authInfo, webRequestOf(req));
        transport.closeExchange(id, exchange);
        void exchange.finish(answer.response);
      });
  }
}
