// Serves 2025-era traffic. Sessionful (stateful/auto): `initialize` opens a session, recorded in the session
// registry; any instance sharing that registry serves later requests carrying its Mcp-Session-Id, rebuilding the
// session from the record on first sight, and a client's answer to a request another instance sent goes to that
// instance. Only a successful initialize keeps its slot under the per-instance cap; idle sessions are evicted by
// whichever instance wins the removal; shutdown closes this instance's copies only. Per request (stateless, and
// auto for clients that never initialize): the SDK's stateless fallback.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  type InitializeRequest,
  isInitializeRequest,
  type JSONRPCMessage,
  legacyStatelessFallback,
  type Server,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { edgeError, McpError } from '../../../src/errors/index.js';
import type { AppPort } from '../../../src/host/index.js';
import type { HttpConfig } from '../../../src/index.js';
import { stampedShareKey } from '../edge/principal-slots.js';
import { writeJsonRpcError } from '../json-rpc-reply.js';
import { sweepIdleSessions } from './idle-session-sweep.js';
import { routeClientMessages } from './outbound-request-ids.js';
import { type Restored, SESSION_ID, SessionCopies } from './session-copies.js';
import { SessionDirectCalls } from './session-direct-calls.js';
import { InMemorySessionEventStore, type SessionEventStoreFactory } from './session-event-store.js';
import { NoSessionPeers, type SessionPeers } from './session-peers.js';
import { mayUseSession, principalOf } from './session-principal.js';
import {
  InMemorySessionRegistry,
  type SessionCounts,
  type SessionRecord,
  type SessionRegistry,
} from './session-registry.js';
import type { SessionTransport } from './session-transport.js';

export interface HandshakeLegOptions {
  /**
   * The change-event bus shared with the 2026-07-28 listen streams. Live sessions hear every event on it, so with a
   * shared (Redis) bus a change published on any instance reaches this instance's sessions too.
   */
  readonly bus?: ServerEventBus;
  readonly registry?: SessionRegistry;
  readonly eventStores?: SessionEventStoreFactory;
  /** The other instances sharing the registry: notices about sessions, and replies routed to the right instance. */
  readonly peers?: SessionPeers;
  readonly now?: () => number;
}

export class HandshakeSessionLeg {
  private readonly copies: SessionCopies;
  private readonly registry: SessionRegistry;
  private readonly peers: SessionPeers;
  private readonly now: () => number;
  private readonly stateless: ReturnType<typeof toNodeHandler>;
  /** The session direct path; off with MCP_HTTP_FAST_PATH=off. */
  private readonly direct: SessionDirectCalls | undefined;
  private readonly sweeper: NodeJS.Timeout;
  private sweeping = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly app: AppPort,
    private readonly config: HttpConfig,
    options: HandshakeLegOptions = {},
    /** Where the SDK's transport errors go, so a 5xx it writes is logged with its cause. */
    reportError: (error: Error) => void = () => undefined,
  ) {
    this.registry = options.registry ?? new InMemorySessionRegistry();
    this.peers = options.peers ?? new NoSessionPeers();
    this.now = options.now ?? Date.now;
    const { resumability } = config;
    const eventStores = resumability.enabled
      ? (options.eventStores ?? (() => new InMemorySessionEventStore(resumability)))
      : undefined;
    this.copies = new SessionCopies({
      app,
      config,
      registry: this.registry,
      peers: this.peers,
      eventStores,
      now: this.now,
      reportError,
    });
    const fallback = legacyStatelessFallback(
      () => app.createServer('handshake', { exposesSessionId: false, perRequestHandshake: true }),
      (error) => {
        reportError(error);
        app.logger.debug({ err: error }, `Stateless 2025 request failed: ${error.message}`);
      },
      { maxRequestBodySize: config.maxBodyBytes },
    );
    this.stateless = toNodeHandler({ fetch: fallback });
    this.direct = config.fastPath ? new SessionDirectCalls(app, config.timeouts.sseKeepAliveMs) : undefined;
    const sweepEvery = Math.max(50, Math.min(30_000, Math.floor(config.staleSessionTimeoutMs / 2)));
    this.sweeper = setInterval(() => void this.sweep(), sweepEvery);
    this.sweeper.unref();
    this.unsubscribe = options.bus?.subscribe((event) => this.copies.deliver(event)) ?? (() => undefined);
  }

  get liveSessions(): number {
    return this.copies.size;
  }

  /** Sessions served here and recorded anywhere (the registry's view). */
  sessionCounts(): Promise<SessionCounts> {
    return this.registry.count(this.peers.instanceId);
  }

  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const mode = this.config.sessionMode;
    if (mode === 'stateless') return this.stateless(req, res, body);

    const sessionId = headerValue(req, 'mcp-session-id');
    if (sessionId) return this.withRegistry(res, () => this.serveSession(sessionId, req, res, body));
    if (req.method === 'POST' && isInitializeRequest(body)) {
      return this.withRegistry(res, () => this.openSession(req, res, body));
    }
    if (mode === 'auto') return this.stateless(req, res, body);
    writeJsonRpcError(
      res,
      400,
      edgeError(
        'session_required',
        'Mcp-Session-Id header is required: send initialize first and repeat the session id it returns.',
      ),
    );
  }

  /** Closes this instance's copy of every session (shutdown); the sessions live on for the other instances. */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    // Events keep arriving while the copies hand their streams over; only then does this instance stop hearing them.
    await this.copies.closeAll();
    this.unsubscribe();
  }

  /** Session work needs the registry: while a shared one is unreachable, the answer is a 503 to retry, not a 500. */
  private async withRegistry(res: ServerResponse, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof McpError && error.reason === 'storage_unavailable') || res.headersSent) throw error;
      this.app.logger.warning({ err: error }, 'Session registry unreachable; answered 503');
      const hint = 'Retry in a few seconds: the session is kept and continues once the session store is back.';
      writeJsonRpcError(
        res,
        503,
        edgeError('storage_unavailable', 'Sessions are unavailable: the session store cannot be reached.', {
          recovery: { hint },
        }),
        { 'retry-after': '5' },
      );
    }
  }

  private async serveSession(id: string, req: IncomingMessage, res: ServerResponse, body: unknown) {
    const principal = principalOf(req);
    const { elsewhere, here } =
      req.method === 'POST' ? routeClientMessages(body, this.peers.instanceId) : { elsewhere: new Map(), here: body };
    const onlyForOthers = req.method === 'POST' && here === undefined;
    let session = this.copies.get(id);
    if (session) {
      if (!mayUseSession(session.principal, principal) || !(await this.copies.refresh(session))) {
        return sessionNotFound(res);
      }
    } else if (onlyForOthers) {
      // Only answers other instances wait for: nothing needs this session rebuilt here.
      const record = SESSION_ID.test(id) ? await this.registry.get(id) : undefined;
      if (!record || !mayUseSession(record.principal, principal)) return sessionNotFound(res);
    } else {
      const restored = await this.copies.restore(id, stampedShareKey(req));
      if (typeof restored === 'string') return refuse(res, restored, this.config);
      if (!mayUseSession(restored.principal, principal)) return sessionNotFound(res);
      session = restored;
    }
    for (const [instance, messages] of elsewhere) await this.forward(instance, id, messages);
    if (!session || onlyForOthers) {
      res.writeHead(202).end();
      return;
    }

    const serving = session;
    const answers = req.method !== 'GET';
    serving.openRequests++;
    if (answers) serving.answering++;
    else this.copies.claimEventStream(serving);
    res.once('close', () => {
      serving.openRequests--;
      if (answers) serving.answering--;
      serving.lastUsedAt = this.now();
      this.registry.touch(id, this.now(), this.peers.instanceId).catch((error: unknown) => this.copies.warn(error, id));
    });
    const call = answers ? this.direct?.plan(serving, req, here) : undefined;
    if (call) return this.direct?.serve(serving, call, req, res, here);
    if (!answers && (await this.direct?.resume(serving, req, res))) return;
    await serving.transport.handle(req, res, here);
  }

  private async openSession(req: IncomingMessage, res: ServerResponse, body: InitializeRequest) {
    if (this.copies.closing) return refuse(res, 'shutting_down', this.config);
    // The caller's own oldest idle session makes room when it holds its share; never another caller's.
    const share = stampedShareKey(req);
    if (!(await this.copies.makeRoom(share, this.config.maxSessionsPerPrincipal, 'end'))) {
      return refuse(res, 'principal_session_limit', this.config);
    }
    if (this.copies.slotsTaken >= this.config.maxSessions) return refuse(res, 'session_limit', this.config);
    const id = randomUUID();
    const principal = principalOf(req);
    const session = this.copies.create(id, principal, share, true, 0);
    session.openRequests = 1;
    session.answering = 1;
    const { transport, server } = session;
    // The slot is taken before the SDK answers, so a burst of initializes cannot overshoot the cap, and given back
    // when the answer was anything but a session: a refused initialize must not hold a slot until the idle timeout.
    this.copies.adopt(session);
    res.once('close', () => {
      session.openRequests--;
      session.answering--;
      if (initialized(transport, server, res, id)) return;
      this.copies.end(id).catch((error: unknown) => this.copies.warn(error, id, 'Could not release a refused session'));
    });
    const now = this.now();
    const { params } = body;
    const record: SessionRecord = {
      id,
      createdAt: now,
      lastSeenAt: now,
      initialize: params,
      clientCapabilities: params.capabilities,
      clientInfo: params.clientInfo,
      subscriptions: [],
      streamHolder: this.peers.instanceId,
      ...(principal === undefined ? {} : { principal }),
      revision: 0,
    };
    await this.registry.add(record);
    // The client may have gone while a shared registry was still adding: the release above found nothing to remove.
    if (!this.copies.get(id)) {
      await this.registry.remove(id);
      return;
    }
    await this.registry.touch(id, now, this.peers.instanceId);
    await server.connect(transport);
    await transport.handle(req, res, body);
  }

  private async forward(instance: string, sessionId: string, messages: JSONRPCMessage[]): Promise<void> {
    if (await this.peers.forward(instance, sessionId, messages)) return;
    this.app.logger.warning(
      { sessionId, instance },
      'A client answered a request of an instance that is gone; nobody is waiting for the answer',
    );
  }

  private async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await sweepIdleSessions(
        this.copies,
        this.registry,
        this.now() - this.config.staleSessionTimeoutMs,
        this.app.logger,
      );
    } catch (error) {
      this.copies.warn(error, undefined, 'Idle session sweep failed; it runs again shortly');
    } finally {
      this.sweeping = false;
    }
  }
}

/** Whether the SDK answered initialize with a session: its id issued, a success status, the handshake handled. */
function initialized(transport: SessionTransport, server: Server, res: ServerResponse, id: string): boolean {
  return (
    transport.sessionId === id &&
    res.statusCode >= 200 &&
    res.statusCode < 300 &&
    server.getClientCapabilities() !== undefined
  );
}

function sessionNotFound(res: ServerResponse): void {
  writeJsonRpcError(
    res,
    404,
    edgeError(
      'session_not_found',
      'Session not found: it ended or expired. Send initialize (without Mcp-Session-Id) to start a new one.',
    ),
  );
}

function refuse(res: ServerResponse, refusal: Exclude<Restored, object>, config: HttpConfig): void {
  if (refusal === 'not_found') {
    sessionNotFound(res);
    return;
  }
  if (refusal === 'shutting_down') {
    writeJsonRpcError(res, 503, edgeError('shutting_down', 'The server is shutting down; connect again shortly.'));
    return;
  }
  if (refusal === 'principal_session_limit') {
    const share = config.maxSessionsPerPrincipal;
    writeJsonRpcError(
      res,
      429,
      edgeError(
        'session_limit',
        `You already hold ${share} sessions on this instance, the most one caller may, and each is in use. ` +
          'End one you no longer need (DELETE with its Mcp-Session-Id) before opening another.',
        { limit: share, share: 'principal' },
      ),
    );
    return;
  }
  const limit = config.maxSessions;
  writeJsonRpcError(
    res,
    503,
    edgeError(
      'session_limit',
      `Session limit reached (${limit} live sessions). Close an unused session or retry later.`,
      { limit, share: 'instance' },
    ),
    { 'retry-after': '5' },
  );
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
