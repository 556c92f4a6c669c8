// Serves 2025-era traffic. Sessionful (stateful/auto): `initialize` opens a session with its own transport,
// protocol server and bounded event store; later requests carry Mcp-Session-Id. Only a successful initialize keeps
// its slot under the session cap; idle sessions are evicted, and every session closes on shutdown. Per request
// (stateless, and auto for clients that never initialize): the SDK's stateless fallback.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import {
  isInitializeRequest,
  legacyStatelessFallback,
  type Server,
  type ServerEvent,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { edgeError } from '../../src/errors/index.js';
import type { AppPort, ChangeSink, HttpConfig } from '../../src/index.js';
import { writeJsonRpcError } from './json-rpc-reply.js';
import {
  InMemorySessionEventStore,
  type SessionEventStore,
  type SessionEventStoreFactory,
} from './session-event-store.js';
import { InMemorySessionRegistry, type SessionRegistry } from './session-registry.js';

interface LiveSession {
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly eventStore: SessionEventStore | undefined;
  readonly server: Server;
  /** Where change events reach this session: its GET stream, resource updates only for subscribed URIs. */
  readonly notifications: ChangeSink;
  openRequests: number;
}

export interface LegacyLegOptions {
  /**
   * The change-event bus shared with the 2026-07-28 listen streams. Live sessions hear every event on it, so with a
   * shared (Redis) bus a change published on any instance reaches this instance's sessions too.
   */
  readonly bus?: ServerEventBus;
  readonly registry?: SessionRegistry;
  readonly eventStores?: SessionEventStoreFactory;
  readonly now?: () => number;
}

export class LegacySessionLeg {
  private readonly live = new Map<string, LiveSession>();
  private readonly registry: SessionRegistry;
  private readonly eventStores: SessionEventStoreFactory | undefined;
  private readonly now: () => number;
  private readonly stateless: ReturnType<typeof toNodeHandler>;
  private readonly sweeper: NodeJS.Timeout;
  private closing = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly app: AppPort,
    private readonly config: HttpConfig,
    options: LegacyLegOptions = {},
    /** Where the SDK's transport errors go, so a 5xx it writes is logged with its cause. */
    private readonly reportError: (error: Error) => void = () => undefined,
  ) {
    this.registry = options.registry ?? new InMemorySessionRegistry();
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
    this.sweeper = setInterval(() => void this.evictIdle(), sweepEvery);
    this.sweeper.unref();
    this.unsubscribe = options.bus?.subscribe((event) => this.deliver(event)) ?? (() => undefined);
  }

  get liveSessions(): number {
    return this.live.size;
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

  /** Closes every session (shutdown). */
  async closeAll(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweeper);
    this.unsubscribe();
    await Promise.allSettled([...this.live.keys()].map((id) => this.closeSession(id)));
  }

  private async serveSession(sessionId: string, req: IncomingMessage, res: ServerResponse, body: unknown) {
    const session = this.live.get(sessionId);
    if (!session) {
      writeJsonRpcError(
        res,
        404,
        edgeError(
          'session_not_found',
          'Session not found: it ended or expired. Send initialize (without Mcp-Session-Id) to start a new one.',
        ),
      );
      return;
    }
    await this.registry.touch(sessionId, this.now());
    session.openRequests++;
    res.once('close', () => {
      session.openRequests--;
      void this.registry.touch(sessionId, this.now());
    });
    await session.transport.handleRequest(req, res, body);
  }

  private async openSession(req: IncomingMessage, res: ServerResponse, body: unknown) {
    if (this.closing) {
      writeJsonRpcError(res, 503, edgeError('shutting_down', 'The server is shutting down; connect again shortly.'));
      return;
    }
    const limit = this.config.maxSessions;
    if ((await this.registry.count()) >= limit) {
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
      return;
    }
    // The id is chosen before the transport exists so the session's own event store can be keyed by it.
    const id = randomUUID();
    const eventStore = this.eventStores?.(id);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      ...(eventStore ? { eventStore } : {}),
      keepAliveMs: this.config.timeouts.sseKeepAliveMs,
      onsessionclosed: () => void this.forget(id),
    });
    const server = this.app.createServer('legacy', { exposesSessionId: true });
    const session: LiveSession = {
      transport,
      eventStore,
      server,
      notifications: this.app.sinkFor(server, 'legacy'),
      openRequests: 1,
    };
    transport.onclose = () => void this.forget(id);
    transport.onerror = (error) => this.reportError(error);
    // The slot is taken before the SDK answers, so a burst of initializes cannot overshoot the cap, and given back
    // when the answer was anything but a session: a refused initialize must not hold a slot until the idle timeout.
    this.live.set(id, session);
    res.once('close', () => {
      session.openRequests--;
      if (initialized(transport, server, res, id)) return;
      this.closeSession(id).catch((error: unknown) =>
        this.app.logger.warning({ err: error, sessionId: id }, 'Could not release a refused session'),
      );
    });
    await this.registry.add({ id, createdAt: this.now(), lastSeenAt: this.now() });
    // The client may have gone while a shared registry was still adding: the release above found nothing to remove.
    if (!this.live.has(id)) return this.registry.remove(id);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  private deliver(event: ServerEvent): void {
    for (const { notifications } of this.live.values()) {
      if (event.kind === 'tools_list_changed') notifications.toolsChanged();
      else if (event.kind === 'prompts_list_changed') notifications.promptsChanged();
      else if (event.kind === 'resources_list_changed') notifications.resourcesChanged();
      else notifications.resourceUpdated(event.uri);
    }
  }

  private async evictIdle(): Promise<void> {
    const cutoff = this.now() - this.config.staleSessionTimeoutMs;
    for (const id of await this.registry.staleSince(cutoff)) {
      // A session with a request or stream still open is in use, however long ago it last sent anything.
      if ((this.live.get(id)?.openRequests ?? 0) > 0) continue;
      this.app.logger.info({ sessionId: id }, 'Evicting idle MCP session');
      await this.closeSession(id);
    }
  }

  private async closeSession(id: string): Promise<void> {
    const session = this.live.get(id);
    await this.forget(id);
    await session?.transport.close().catch(() => undefined);
  }

  private async forget(id: string): Promise<void> {
    const session = this.live.get(id);
    if (!session) return;
    this.live.delete(id);
    await this.registry.remove(id);
    await session.eventStore?.clear();
  }
}

/** Whether the SDK answered initialize with a session: its id issued, a success status, the handshake handled. */
function initialized(
  transport: NodeStreamableHTTPServerTransport,
  server: Server,
  res: ServerResponse,
  id: string,
): boolean {
  return (
    transport.sessionId === id &&
    res.statusCode >= 200 &&
    res.statusCode < 300 &&
    server.getClientCapabilities() !== undefined
  );
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
