// Serves 2025-era traffic. Sessionful (stateful/auto): `initialize` opens a session, recorded in the session
// registry; any instance sharing that registry serves later requests carrying its Mcp-Session-Id, rebuilding the
// session from the record on first sight. Only a successful initialize keeps its slot under the per-instance cap;
// idle sessions are evicted by whichever instance wins the removal; shutdown closes this instance's copies only.
// Per request (stateless, and auto for clients that never initialize): the SDK's stateless fallback.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  type InitializeRequest,
  isInitializeRequest,
  type JSONRPCMessage,
  legacyStatelessFallback,
  type Server,
  type ServerEvent,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { edgeError } from '../../src/errors/index.js';
import type { AppPort, ChangeSink, HttpConfig } from '../../src/index.js';
import { writeJsonRpcError } from './json-rpc-reply.js';
import { routeClientMessages } from './outbound-request-ids.js';
import {
  InMemorySessionEventStore,
  type SessionEventStore,
  type SessionEventStoreFactory,
} from './session-event-store.js';
import { NoSessionPeers, type SessionNotice, type SessionPeers } from './session-peers.js';
import { mayUseSession, principalOf } from './session-principal.js';
import {
  InMemorySessionRegistry,
  isReplayedChange,
  type SessionChange,
  type SessionCounts,
  type SessionRecord,
  type SessionRegistry,
} from './session-registry.js';
import { SessionTransport } from './session-transport.js';

interface LiveSession {
  readonly id: string;
  readonly transport: SessionTransport;
  readonly eventStore: SessionEventStore | undefined;
  readonly server: Server;
  /** Where change events reach this session: its GET stream, resource updates only for subscribed URIs. */
  readonly notifications: ChangeSink;
  readonly principal: string | undefined;
  openRequests: number;
  /** Of those, the exchanges that end with an answer (not GET streams): shutdown lets them finish writing. */
  answering: number;
  /** When a request last used this copy, on this instance. */
  lastUsedAt: number;
  /** The record's revision this copy has replayed up to. */
  revision: number;
  /** Whether change events go out here: this instance holds (or last held) the GET stream, or opened the session. */
  deliversEvents: boolean;
  catchingUp: Promise<void> | undefined;
}

export interface LegacyLegOptions {
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

/** Ids this host issues; anything else names no session, and is not worth a registry lookup. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** How long shutdown waits for answers whose handlers already returned. */
const ANSWER_WRITE_GRACE_MS = 1_000;

type Restored = LiveSession | 'not_found' | 'session_limit' | 'shutting_down';

export class LegacySessionLeg {
  private readonly live = new Map<string, LiveSession>();
  /** Sessions being rebuilt here, so 20 requests arriving at once rebuild one copy. */
  private readonly restoring = new Map<string, Promise<Restored>>();
  private readonly registry: SessionRegistry;
  private readonly peers: SessionPeers;
  private readonly eventStores: SessionEventStoreFactory | undefined;
  private readonly now: () => number;
  private readonly stateless: ReturnType<typeof toNodeHandler>;
  private readonly sweeper: NodeJS.Timeout;
  private sweeping = false;
  private closing = false;
  private readonly unsubscribe: () => void;
  private readonly stopHearingPeers: () => void;

  constructor(
    private readonly app: AppPort,
    private readonly config: HttpConfig,
    options: LegacyLegOptions = {},
    /** Where the SDK's transport errors go, so a 5xx it writes is logged with its cause. */
    private readonly reportError: (error: Error) => void = () => undefined,
  ) {
    this.registry = options.registry ?? new InMemorySessionRegistry();
    this.peers = options.peers ?? new NoSessionPeers();
    this.now = options.now ?? Date.now;
    const { resumability } = config;
    this.eventStores = resumability.enabled
      ? (options.eventStores ?? (() => new InMemorySessionEventStore(resumability)))
      : undefined;
    const fallback = legacyStatelessFallback(
      () => app.createServer('legacy', { exposesSessionId: false, perRequestLegacy: true }),
      (error) => {
        reportError(error);
        app.logger.debug({ err: error }, `Stateless 2025 request failed: ${error.message}`);
      },
      { maxRequestBodySize: config.maxBodyBytes },
    );
    this.stateless = toNodeHandler({ fetch: fallback });
    const sweepEvery = Math.max(50, Math.min(30_000, Math.floor(config.staleSessionTimeoutMs / 2)));
    this.sweeper = setInterval(() => void this.sweep(), sweepEvery);
    this.sweeper.unref();
    this.unsubscribe = options.bus?.subscribe((event) => this.deliver(event)) ?? (() => undefined);
    this.stopHearingPeers = this.peers.listen({
      notice: (notice) => this.heard(notice),
      messages: (sessionId, messages) => this.forwarded(sessionId, messages),
    });
  }

  get instanceId(): string {
    return this.peers.instanceId;
  }

  get liveSessions(): number {
    return this.live.size;
  }

  /** Sessions served here and recorded anywhere (the registry's view). */
  sessionCounts(): Promise<SessionCounts> {
    return this.registry.count(this.instanceId);
  }

  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const mode = this.config.sessionMode;
    if (mode === 'stateless') return this.stateless(req, res, body);

    const sessionId = headerValue(req, 'mcp-session-id');
    if (sessionId) return this.serveSession(sessionId, req, res, body);
    if (req.method === 'POST' && isInitializeRequest(body)) return this.openSession(req, res, body);
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
    this.closing = true;
    clearInterval(this.sweeper);
    this.unsubscribe();
    this.stopHearingPeers();
    await this.answersWritten(ANSWER_WRITE_GRACE_MS);
    await Promise.allSettled([...this.live.values()].map((session) => this.dropCopy(session)));
  }

  /**
   * The app's drain ends when handlers return, a moment before the SDK has written their answers (an event store
   * write may come first): closing a transport then would abort them. Waits for those answers, briefly.
   */
  private async answersWritten(graceMs: number): Promise<void> {
    const deadline = performance.now() + graceMs;
    const writing = () => [...this.live.values()].some((session) => session.answering > 0);
    while (writing() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  private async serveSession(id: string, req: IncomingMessage, res: ServerResponse, body: unknown) {
    const principal = principalOf(req);
    const { elsewhere, here } =
      req.method === 'POST' ? routeClientMessages(body, this.instanceId) : { elsewhere: new Map(), here: body };
    let session = this.live.get(id);
    if (session) {
      if (!mayUseSession(session.principal, principal) || !(await this.refresh(session))) return sessionNotFound(res);
    } else if (here === undefined && req.method === 'POST') {
      // Only replies that other instances wait for: nothing needs this session rebuilt here.
      const record = SESSION_ID.test(id) ? await this.registry.get(id) : undefined;
      if (!record || !mayUseSession(record.principal, principal)) return sessionNotFound(res);
    } else {
      const restored = await this.restore(id);
      if (typeof restored === 'string') return refuseRestore(res, restored, this.config.maxSessions);
      if (!mayUseSession(restored.principal, principal)) return sessionNotFound(res);
      session = restored;
    }
    for (const [instance, messages] of elsewhere) await this.forward(instance, id, messages);
    if (!session || (here === undefined && req.method === 'POST')) {
      res.writeHead(202).end();
      return;
    }

    const serving = session;
    const answers = req.method !== 'GET';
    serving.openRequests++;
    if (answers) serving.answering++;
    else this.claimEventStream(serving);
    res.once('close', () => {
      serving.openRequests--;
      if (answers) serving.answering--;
      serving.lastUsedAt = this.now();
      this.registry.touch(id, this.now(), this.instanceId).catch((error: unknown) => this.warn(error, id));
    });
    await serving.transport.handle(req, res, here);
  }

  private async openSession(req: IncomingMessage, res: ServerResponse, body: InitializeRequest) {
    if (this.closing) {
      writeJsonRpcError(res, 503, edgeError('shutting_down', 'The server is shutting down; connect again shortly.'));
      return;
    }
    if (this.live.size + this.restoring.size >= this.config.maxSessions) {
      return refuseRestore(res, 'session_limit', this.config.maxSessions);
    }
    const id = randomUUID();
    const principal = principalOf(req);
    const session = this.createSession(id, principal, true, 0);
    session.openRequests = 1;
    session.answering = 1;
    const { transport, server } = session;
    // The slot is taken before the SDK answers, so a burst of initializes cannot overshoot the cap, and given back
    // when the answer was anything but a session: a refused initialize must not hold a slot until the idle timeout.
    this.live.set(id, session);
    res.once('close', () => {
      session.openRequests--;
      session.answering--;
      if (initialized(transport, server, res, id)) return;
      this.endSession(id).catch((error: unknown) =>
        this.app.logger.warning({ err: error, sessionId: id }, 'Could not release a refused session'),
      );
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
      streamHolder: this.instanceId,
      ...(principal === undefined ? {} : { principal }),
      revision: 0,
    };
    await this.registry.add(record);
    // The client may have gone while a shared registry was still adding: the release above found nothing to remove.
    if (!this.live.has(id)) {
      await this.registry.remove(id);
      return;
    }
    await this.registry.touch(id, now, this.instanceId);
    await server.connect(transport);
    await transport.handle(req, res, body);
  }

  /** This instance's copy of a session recorded elsewhere, rebuilt once however many requests ask at the same time. */
  private restore(id: string): Promise<Restored> {
    let restoring = this.restoring.get(id);
    if (!restoring) {
      restoring = this.rebuild(id).finally(() => this.restoring.delete(id));
      this.restoring.set(id, restoring);
    }
    return restoring;
  }

  private async rebuild(id: string): Promise<Restored> {
    if (this.closing) return 'shutting_down';
    const record = SESSION_ID.test(id) ? await this.registry.get(id) : undefined;
    if (!record) return 'not_found';
    // `restoring` holds this rebuild too by now.
    if (this.live.size + this.restoring.size > this.config.maxSessions) return 'session_limit';
    const startedAt = performance.now();
    const session = this.createSession(id, record.principal, record.streamHolder === this.instanceId, record.revision);
    await session.server.connect(session.transport);
    try {
      await session.transport.restore(record);
    } catch (error) {
      await session.transport.close().catch(() => undefined);
      throw error;
    }
    this.live.set(id, session);
    if (!(await this.refresh(session))) return 'not_found';
    this.app.logger.info(
      { sessionId: id, ms: Math.round((performance.now() - startedAt) * 10) / 10 },
      'Rehydrated MCP session',
    );
    return session;
  }

  private createSession(id: string, principal: string | undefined, deliversEvents: boolean, revision: number) {
    const eventStore = this.eventStores?.(id);
    const transport = new SessionTransport({
      sessionId: id,
      instanceId: this.instanceId,
      eventStore,
      keepAliveMs: this.config.timeouts.sseKeepAliveMs,
      recordChange: (change) => this.recordChange(id, change),
      onSessionClosed: () => this.endRecord(id),
    });
    const server = this.app.createServer('legacy', { exposesSessionId: true });
    const session: LiveSession = {
      id,
      transport,
      eventStore,
      server,
      notifications: this.app.sinkFor(server, 'legacy'),
      principal,
      openRequests: 0,
      answering: 0,
      lastUsedAt: this.now(),
      revision,
      deliversEvents,
      catchingUp: undefined,
    };
    // Set before the server connects, which chains its own close handling after this one.
    transport.onclose = () => void this.dropCopy(session);
    transport.onerror = (error) => this.reportError(error);
    return session;
  }

  /** Marks the session seen; false when it ended elsewhere (the copy here is dropped). Catches up on changes. */
  private async refresh(session: LiveSession): Promise<boolean> {
    session.lastUsedAt = this.now();
    const revision = await this.registry.touch(session.id, session.lastUsedAt, this.instanceId);
    if (revision === undefined) {
      await this.dropCopy(session);
      return false;
    }
    if (revision > session.revision) await this.catchUp(session);
    return true;
  }

  private catchUp(session: LiveSession): Promise<void> {
    session.catchingUp ??= (async () => {
      const record = await this.registry.get(session.id);
      if (!record) return;
      await session.transport.catchUp(record);
      session.revision = Math.max(session.revision, record.revision);
    })().finally(() => {
      session.catchingUp = undefined;
    });
    return session.catchingUp;
  }

  /** Records what a request changed before its answer leaves; a failure is logged, the answer still goes out. */
  private async recordChange(id: string, change: SessionChange): Promise<void> {
    try {
      const revision = await this.registry.update(id, change);
      if (revision === undefined || !isReplayedChange(change)) return;
      const session = this.live.get(id);
      // A gap means another instance changed the session meanwhile: the next refresh replays that change here.
      if (session && revision === session.revision + 1) session.revision = revision;
      await this.peers.announce({ kind: 'changed', sessionId: id });
    } catch (error) {
      this.warn(error, id, `Could not record ${change.kind} for the session; other instances may not see it`);
    }
  }

  /** A GET stream opened here: change events for the session go out from this instance from now on. */
  private claimEventStream(session: LiveSession): void {
    session.deliversEvents = true;
    this.registry
      .update(session.id, { kind: 'streamHolder', instance: this.instanceId })
      .then(() => this.peers.announce({ kind: 'stream', sessionId: session.id, instance: this.instanceId }))
      .catch((error: unknown) => this.warn(error, session.id));
  }

  private async forward(instance: string, sessionId: string, messages: JSONRPCMessage[]): Promise<void> {
    if (await this.peers.forward(instance, sessionId, messages)) return;
    this.app.logger.warning(
      { sessionId, instance },
      'A client answered a request of an instance that is gone; nobody is waiting for the answer',
    );
  }

  private forwarded(sessionId: string, messages: readonly JSONRPCMessage[]): void {
    const session = this.live.get(sessionId);
    if (session) session.transport.deliverForwarded(messages);
    else this.app.logger.debug({ sessionId }, 'A forwarded client answer arrived for a session not served here');
  }

  private heard(notice: SessionNotice): void {
    const session = this.live.get(notice.sessionId);
    if (!session) return;
    if (notice.kind === 'ended') void this.dropCopy(session);
    else if (notice.kind === 'changed') this.catchUp(session).catch((error: unknown) => this.warn(error, session.id));
    else if (notice.instance !== this.instanceId) session.deliversEvents = false;
  }

  private deliver(event: ServerEvent): void {
    for (const { notifications, deliversEvents } of this.live.values()) {
      if (!deliversEvents) continue;
      if (event.kind === 'tools_list_changed') notifications.toolsChanged();
      else if (event.kind === 'prompts_list_changed') notifications.promptsChanged();
      else if (event.kind === 'resources_list_changed') notifications.resourcesChanged();
      else notifications.resourceUpdated(event.uri);
    }
  }

  /**
   * Evicts idle sessions. Sessions with a request or stream open here count as in use and are marked seen, which
   * keeps them alive for every instance; a stale session is removed by whichever instance's removal takes effect,
   * and copies idle here are dropped even while other instances keep the session busy.
   */
  private async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const now = this.now();
      const cutoff = now - this.config.staleSessionTimeoutMs;
      for (const session of [...this.live.values()]) {
        if (session.openRequests > 0) await this.refresh(session);
      }
      for (const id of await this.registry.staleSince(cutoff)) {
        if ((this.live.get(id)?.openRequests ?? 0) > 0) continue;
        if ((await this.registry.evictIfStale(id, cutoff)) !== 'evicted') continue;
        this.app.logger.info({ sessionId: id }, 'Evicting idle MCP session');
        await this.cleanUpEnded(id);
        const session = this.live.get(id);
        if (session) await this.dropCopy(session);
      }
      for (const session of [...this.live.values()]) {
        if (session.openRequests === 0 && session.lastUsedAt < cutoff) await this.dropCopy(session);
      }
    } catch (error) {
      this.warn(error, undefined, 'Idle session sweep failed; it runs again shortly');
    } finally {
      this.sweeping = false;
    }
  }

  /** Ends a session everywhere: its record, its stored frames, every instance's copy. */
  private async endSession(id: string): Promise<void> {
    await this.endRecord(id);
    const session = this.live.get(id);
    if (session) await this.dropCopy(session);
  }

  /** Removes the record; the instance whose removal took effect cleans up after the session. */
  private async endRecord(id: string): Promise<void> {
    if (await this.registry.remove(id)) await this.cleanUpEnded(id);
  }

  private async cleanUpEnded(id: string): Promise<void> {
    await (this.live.get(id)?.eventStore ?? this.eventStores?.(id))?.clear();
    await this.peers.announce({ kind: 'ended', sessionId: id });
  }

  /** Drops this instance's copy; the record, and other instances' copies, stay. */
  private async dropCopy(session: LiveSession): Promise<void> {
    if (this.live.get(session.id) !== session) return;
    this.live.delete(session.id);
    await session.transport.close().catch(() => undefined);
    await this.registry.release(session.id, this.instanceId).catch((error: unknown) => this.warn(error, session.id));
  }

  private warn(error: unknown, sessionId: string | undefined, message = 'Session registry call failed'): void {
    this.app.logger.warning({ err: error, ...(sessionId ? { sessionId } : {}) }, message);
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

function refuseRestore(res: ServerResponse, refusal: Exclude<Restored, LiveSession>, limit: number): void {
  if (refusal === 'not_found') {
    sessionNotFound(res);
    return;
  }
  if (refusal === 'shutting_down') {
    writeJsonRpcError(res, 503, edgeError('shutting_down', 'The server is shutting down; connect again shortly.'));
    return;
  }
  writeJsonRpcError(
    res,
    503,
    edgeError(
      'session_limit',
      `Session limit reached (${limit} live sessions). Close an unused session or retry later.`,
      { limit },
    ),
    { 'retry-after': '5' },
  );
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
