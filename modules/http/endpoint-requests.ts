// Where each request to the MCP endpoint goes, once the edge checks and the bearer gate let it through: a call the
// token's scopes do not cover gets its step-up challenge, a caller over its share of requests in flight a 429, a plain
// 2026-07-28 request the fast path (or the SDK's per-request entry), a 2025 one its session leg, and a listen its
// stream (tasks, the tenant's events, or the SDK's router).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { edgeError, type JsonRpcId } from '../../src/errors/index.js';
import { type AppPort, principalOf } from '../../src/host/index.js';
import { acceptsEventStream, acceptsPostResponses, notAcceptable, prefersHtml } from './edge/accept-header.js';
import { inFlightRefusal, isRequest, type PrincipalSlots, shareKeyOf } from './edge/principal-slots.js';
import { refuseInsufficientScope } from './edge/scope-refusal.js';
import { isHandshakePost } from './era-of.js';
import type { FastPath } from './fast-path/fast-path.js';
import { writeJsonRpcError } from './json-rpc-reply.js';
import type { LandingPages } from './landing-page/routes.js';
import { isListenRequest, type ListenStreamCap } from './listen/listen-stream-cap.js';
import type { TaskListenStreams } from './listen/task-listen-streams.js';
import type { TenantListenStreams } from './listen/tenant-listen-streams.js';
import type { FailureLog } from './operations/failure-log.js';
import { stampHttpFacts } from './request-facts.js';
import type { HandshakeSessionLeg } from './sessions/handshake-session-leg.js';

type NodeHandler = (req: IncomingMessage, res: ServerResponse, body?: unknown) => Promise<void>;

/** What the endpoint's requests are served with, built once by mountEndpoint. */
export interface EndpointParts {
  readonly app: AppPort;
  readonly failures: FailureLog;
  /** Where a request's challenges point (undefined: name none). */
  readonly challengeUrl: (request: FastifyRequest) => string | undefined;
  readonly inFlight: PrincipalSlots;
  readonly listens: ListenStreamCap;
  readonly fast: FastPath | undefined;
  readonly serveEnvelope: NodeHandler;
  readonly handshake: HandshakeSessionLeg;
  readonly taskListens: TaskListenStreams;
  readonly tenantListens: TenantListenStreams | undefined;
  readonly pages: LandingPages;
  /** Serve the landing page to a browser visiting the endpoint. */
  readonly landingPage: boolean;
}

export class EndpointRequests {
  constructor(private readonly parts: EndpointParts) {}

  /** Runs a hijacked exchange: whatever it throws still gets an answer, and any 5xx is logged with its cause. */
  serve(req: IncomingMessage, res: ServerResponse, work: () => Promise<void>): Promise<void> {
    const { failures } = this.parts;
    return failures.watch(req, res, async () => {
      try {
        await work();
      } catch (error) {
        failures.report(error);
        if (!res.headersSent)
          writeJsonRpcError(res, 500, edgeError('internal_error', 'Internal error; it was logged.'));
        else res.end();
      }
    });
  }

  // Not async: a request the fast path serves returns nothing, so Fastify leaves its reply alone. Returned (or
  // returned from an async function), the reply is a thenable Fastify waits on by watching the response's end with
  // stream.finished: half a dozen listeners per request. The other branches return a sent reply or a promise.
  post(request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<void> | undefined {
    const { app, challengeUrl, inFlight, listens, fast, handshake, serveEnvelope, taskListens, tenantListens } =
      this.parts;
    const body = request.body;
    // A call the token's scopes do not cover is refused here, with a step-up challenge, before any handler runs,
    // whichever path would serve it.
    const unmetScopes = app.scopeChallenge(body, request.raw.auth);
    if (unmetScopes) return refuseInsufficientScope(reply, unmetScopes, body, challengeUrl(request));
    // One caller's share of this instance: requests in flight, and listen streams (which hold their own slots).
    const share = shareKeyOf(request.raw.auth, request.ip);
    const listening = isListenRequest(body);
    if (!listening && isRequest(body) && !inFlight.holdWhileOpen(share, reply.raw)) {
      return reply
        .code(429)
        .header('retry-after', '1')
        .send(inFlightRefusal(body as { id: JsonRpcId }, inFlight.share));
    }
    // A plain 2026-07-28 request the fast path owns is answered there (after the header-parameter check, which the
    // SDK leaves to Kiln); everything else takes the SDK's entry.
    const claimed = fast && acceptsPostResponses(request.headers.accept, false) ? fast.claim(request) : undefined;
    if (fast && claimed) {
      const headerMismatch = app.headerParamMismatch(body, request.headers);
      if (headerMismatch) return reply.code(400).send(headerMismatch);
      if (fast.serve(claimed, request, reply)) return undefined;
    }
    const handshakeEra = isHandshakePost(request.headers, body);
    if (!acceptsPostResponses(request.headers.accept, handshakeEra)) {
      return reply.code(406).send(notAcceptable('application/json and text/event-stream'));
    }
    // Header parameters (Mcp-Param-*, SEP-2243): the SDK checks them only for servers it builds, so Kiln does here.
    const headerMismatch = handshakeEra ? undefined : app.headerParamMismatch(body, request.headers);
    if (headerMismatch) return reply.code(400).send(headerMismatch);
    const listen = !handshakeEra && listening;
    const listenRefused = listen ? listens.claim(reply.raw, share) : undefined;
    if (listenRefused) {
      const { status, headers, body: refusal } = listens.refusal(listenRefused);
      return reply.code(status).headers(headers).send(refusal);
    }
    reply.hijack();
    // Where the SDK (or a 2025 session) takes the request, the caller's address and URL ride on the Node request.
    stampHttpFacts(request);
    if (handshakeEra) return this.serve(request.raw, reply.raw, () => handshake.handle(request.raw, reply.raw, body));
    if (listen && taskListens.claims(body)) {
      return this.serve(request.raw, reply.raw, () => taskListens.serve(request.raw, reply.raw, body));
    }
    if (listen && tenantListens) {
      const { tenantId } = principalOf(request.raw.auth);
      return this.serve(request.raw, reply.raw, () => tenantListens.serve(tenantId, request.raw, reply.raw, body));
    }
    return this.serve(request.raw, reply.raw, () => serveEnvelope(request.raw, reply.raw, body));
  }

  async getOrDelete(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const { handshake, pages } = this.parts;
    if (request.method === 'GET' && !acceptsEventStream(request.headers.accept)) {
      // A browser visiting the endpoint gets the landing page; anything else that cannot read an event stream, 406.
      if (this.parts.landingPage && prefersHtml(request.headers.accept)) return pages.sendPage(request, reply);
      return reply.code(406).send(notAcceptable('text/event-stream'));
    }
    reply.hijack();
    stampHttpFacts(request);
    return this.serve(request.raw, reply.raw, () => handshake.handle(request.raw, reply.raw, undefined));
  }
}
