// The transport of one 2025 session on one instance: the SDK's web-standard transport, held directly (not through
// the Node wrapper, which hides it) so the session can be rebuilt on any instance by replaying its initialize, and
// wrapped so that what passes through it can be seen: outbound request ids are tagged with the instance, and the
// answers to requests that change replayable state reach the client only after the change is recorded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import {
  type AuthInfo,
  type EventStore,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type LoggingLevel,
  type RequestId,
  type ScopeChallengeHandler,
  type Transport,
  type TransportSendOptions,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { tagOutbound, untagInbound } from './outbound-request-ids.js';
import type { SessionEventStore } from './session-event-store.js';
import type { ResumableFrameStore, ResumedStream, SessionExchange } from './session-exchange.js';
import type { SessionChange, SessionRecord } from './session-registry.js';

export interface SessionTransportOptions {
  readonly sessionId: string;
  readonly instanceId: string;
  readonly eventStore: SessionEventStore | undefined;
  readonly keepAliveMs: number;
  /** The SSE `retry` its streams' priming events suggest, so a client whose stream was closed knows when to resume. */
  readonly retryMs?: number;
  /** Records a change; the answer to the request that made it waits for this. */
  readonly recordChange: (change: SessionChange) => Promise<void>;
  /** A DELETE ended the session. */
  readonly onSessionClosed: () => Promise<void>;
}

/** The replayable state of the protocol server behind this transport. */
interface AppliedState {
  logLevel: LoggingLevel | undefined;
  readonly subscriptions: Set<string>;
}

/** Ids of the requests Kiln itself feeds the protocol server; their answers never leave the process. */
const INTERNAL_ID_PREFIX = 'kiln-replay:';
const REPLAY_REQUEST = new Request('http://localhost/', {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
});

export class SessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  private readonly web: WebStandardStreamableHTTPServerTransport;
  private readonly eventStore: SessionFrameStore | undefined;
  private readonly pendingChanges = new Map<RequestId, (result: Record<string, unknown>) => SessionChange>();
  private readonly internalCalls = new Map<string, (response: JSONRPCMessage) => void>();
  private readonly applied: AppliedState = { logLevel: undefined, subscriptions: new Set() };
  /** Requests the session direct path answers on its own exchange: their answers and related messages go there. */
  private readonly exchanges = new Map<RequestId, SessionExchange>();
  /** Requests the SDK's transport is serving (until their answer goes out), so a direct call never reuses an id. */
  private readonly dispatched = new Set<RequestId>();
  private readonly supportedVersions = new Set<string>();
  private internalCallCount = 0;
  private replaying = false;

  constructor(private readonly options: SessionTransportOptions) {
    this.eventStore = options.eventStore && new SessionFrameStore(options.eventStore);
    this.web = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => options.sessionId,
      ...(this.eventStore ? { eventStore: this.eventStore } : {}),
      keepAliveMs: options.keepAliveMs,
      ...(options.retryMs !== undefined ? { retryInterval: options.retryMs } : {}),
      onsessionclosed: () => options.onSessionClosed(),
    });
    this.web.onmessage = (message, extra) => this.receive(message, extra);
    this.web.onclose = () => this.onclose?.();
    this.web.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.web.sessionId;
  }

  start(): Promise<void> {
    return this.web.start();
  }

  close(): Promise<void> {
    return this.web.close();
  }

  /** Ends the session's GET stream, if open here, leaving the session served: its client reconnects with Last-Event-ID. */
  closeEventStream(): void {
    this.web.closeStandaloneSSEStream();
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.supportedVersions.clear();
    for (const version of versions) this.supportedVersions.add(version);
    this.web.setSupportedProtocolVersions(versions);
  }

  /** The session's event store (resumability on), as the SDK's transport writes to it. */
  get frameStore(): ResumableFrameStore | undefined {
    return this.eventStore;
  }

  /** The `retry` the SDK's transport writes in a priming frame, when one is configured. */
  get primingRetryMs(): number | undefined {
    return this.options.retryMs;
  }

  /** Whether the SDK's transport opens a POST stream with a priming frame for a client of this version. */
  primesStreamsFor(version: string): boolean {
    return this.eventStore !== undefined && this.supportedVersions.has(version) && version >= '2025-11-25';
  }

  /** Whether an MCP-Protocol-Version header value passes the SDK transport's check (absent passes). */
  acceptsProtocolVersion(header: string | undefined): boolean {
    return header === undefined || this.supportedVersions.has(header);
  }

  /** The level logging/setLevel last set on this session's server (replays included); undefined: every line goes. */
  get logLevel(): LoggingLevel | undefined {
    return this.applied.logLevel;
  }

  /** Whether a request with this id is being served in this session, on either path. */
  isServing(id: RequestId): boolean {
    return this.exchanges.has(id) || this.dispatched.has(id);
  }

  /** The direct path serves request `id` on `exchange`: whatever the session's server sends about it goes there. */
  openExchange(id: RequestId, exchange: SessionExchange): void {
    this.exchanges.set(id, exchange);
  }

  closeExchange(id: RequestId, exchange: SessionExchange): void {
    if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
  }

  /**
   * Hands a request the direct path opened an exchange for to the session's protocol server, as the SDK's transport
   * would (an input_required round its 2025 shim fulfils): its answer and related messages reach the exchange.
   */
  dispatchOnExchange(request: JSONRPCRequest, authInfo: AuthInfo | undefined, http?: Request): void {
    this.onmessage?.(request, { ...(authInfo ? { authInfo } : {}), ...(http ? { request: http } : {}) });
  }

  setScopeChallengeResolver(resolver: ScopeChallengeHandler): void {
    this.web.setScopeChallengeResolver(resolver);
  }

  /** Serves one HTTP exchange of the session; `req.auth`, when a middleware set it, becomes the request's AuthInfo. */
  async handle(req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
    const authInfo = (req as IncomingMessage & { auth?: AuthInfo }).auth;
    const listener = getRequestListener(
      (request) => this.web.handleRequest(request, { ...(authInfo ? { authInfo } : {}), parsedBody }),
      { overrideGlobalObjects: false },
    );
    await listener(req, res);
  }

  /** Client messages another instance received for requests this instance sent. */
  deliverForwarded(messages: readonly JSONRPCMessage[]): void {
    for (const message of messages) this.receive(message, undefined);
  }

  /**
   * Rebuilds the session from its record through the SDK's public surface: the stored initialize goes through the
   * transport (the only way it becomes initialized, with the known id), then notifications/initialized, then the
   * recorded log level and subscriptions. The event store ignores what the replay writes.
   */
  async restore(record: SessionRecord): Promise<void> {
    this.replaying = true;
    this.eventStore?.pause();
    try {
      const initialize = { jsonrpc: '2.0', id: this.internalId(), method: 'initialize', params: record.initialize };
      const response = await this.web.handleRequest(REPLAY_REQUEST.clone(), { parsedBody: initialize });
      await response.text();
      if (!response.ok || this.sessionId !== record.id) {
        throw new Error(`Replaying initialize of session ${record.id} was refused (HTTP ${response.status})`);
      }
      this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
    } finally {
      this.eventStore?.resume();
      this.replaying = false;
    }
    await this.catchUp(record);
  }

  /** Replays whatever the record changed since this copy last looked: log level, subscriptions added or removed. */
  async catchUp(record: Pick<SessionRecord, 'logLevel' | 'subscriptions'>): Promise<void> {
    const { applied } = this;
    if (record.logLevel !== undefined && record.logLevel !== applied.logLevel) {
      await this.callInternally('logging/setLevel', { level: record.logLevel });
      applied.logLevel = record.logLevel;
    }
    const wanted = new Set(record.subscriptions);
    for (const uri of wanted) {
      if (applied.subscriptions.has(uri)) continue;
      await this.callInternally('resources/subscribe', { uri });
      applied.subscriptions.add(uri);
    }
    for (const uri of [...applied.subscriptions]) {
      if (wanted.has(uri)) continue;
      await this.callInternally('resources/unsubscribe', { uri });
      applied.subscriptions.delete(uri);
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // The protocol server's own messages: their shape is known, so no schema guard (one that fails costs ~14 µs).
    const answer = 'result' in message || 'error' in message;
    if (answer) {
      const internal = this.internalCalls.get(String(message.id));
      if (internal) {
        this.internalCalls.delete(String(message.id));
        internal(message);
        return;
      }
      const change = this.pendingChanges.get(message.id as RequestId);
      if (change) {
        this.pendingChanges.delete(message.id as RequestId);
        if ('result' in message) await this.changed(change(message.result));
      }
      this.dispatched.delete(message.id as RequestId);
    }
    const related = answer ? (message.id as RequestId) : options?.relatedRequestId;
    const exchange = related === undefined ? undefined : this.exchanges.get(related);
    const outbound = tagOutbound(message, this.options.instanceId);
    if (!exchange) return this.web.send(outbound, options);
    if (!answer) return exchange.write(outbound);
    this.exchanges.delete(related as RequestId);
    return exchange.finish(outbound);
  }

  private receive(message: JSONRPCMessage, extra: Parameters<NonNullable<Transport['onmessage']>>[1]): void {
    // The SDK's transport validated the message; a request is the one kind with both a method and an id.
    if (!this.replaying && 'method' in message && 'id' in message) {
      const change = changeMadeBy(message);
      if (change) this.pendingChanges.set(message.id, change);
      this.dispatched.add(message.id);
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      const cancelled = message.params?.requestId;
      if (cancelled !== undefined) {
        // The SDK answers a cancelled request with nothing.
        this.dispatched.delete(cancelled as RequestId);
        this.exchanges.get(cancelled as RequestId)?.cancel();
      }
    }
    this.onmessage?.(untagInbound(message, this.options.instanceId), extra);
  }

  private async changed(change: SessionChange): Promise<void> {
    if (change.kind === 'logLevel') this.applied.logLevel = change.level;
    else if (change.kind === 'subscribe') this.applied.subscriptions.add(change.uri);
    else if (change.kind === 'unsubscribe') this.applied.subscriptions.delete(change.uri);
    await this.options.recordChange(change);
  }

  private internalId(): string {
    return `${INTERNAL_ID_PREFIX}${++this.internalCallCount}`;
  }

  /** Runs a request through the protocol server as if the client had sent it; the answer stays here. */
  private callInternally(method: string, params: Record<string, unknown>): Promise<void> {
    const id = this.internalId();
    return new Promise((resolve, reject) => {
      this.internalCalls.set(id, (response) => {
        if ('error' in response) reject(new Error(`Replaying ${method} failed: ${response.error.message}`));
        else resolve();
      });
      this.onmessage?.({ jsonrpc: '2.0', id, method, params });
    });
  }
}

/** The change a request makes once it succeeds, read from its params (and, for initialize, from the answer). */
function changeMadeBy(request: JSONRPCRequest): ((result: Record<string, unknown>) => SessionChange) | undefined {
  const params = request.params ?? {};
  switch (request.method) {
    case 'initialize':
      return (result) => ({ kind: 'answered', protocolVersion: String(result.protocolVersion) });
    case 'logging/setLevel':
      return () => ({ kind: 'logLevel', level: params.level as LoggingLevel });
    case 'resources/subscribe':
      return () => ({ kind: 'subscribe', uri: String(params.uri) });
    case 'resources/unsubscribe':
      return () => ({ kind: 'unsubscribe', uri: String(params.uri) });
    default:
      return undefined;
  }
}

type ReplaySend = Parameters<EventStore['replayEventsAfter']>[1]['send'];

/**
 * The session's event store, deaf while a replay runs: frames the replay writes were never meant for a client. It
 * also serves the resume of a direct call's stream that ctx.closeStream() ended while the call runs: the SDK's
 * transport would close such a resumed stream at once (it knows no request on it), so the resume replays what is
 * stored and then carries what the call sends next, its answer last.
 */
class SessionFrameStore implements ResumableFrameStore {
  readonly getStreamIdForEventId?: (eventId: string) => Promise<string | undefined>;
  private paused = false;
  private ignored = 0;
  /** Streams of direct calls ended by ctx.closeStream() while their call runs, and the stream resuming each. */
  private readonly detached = new Map<string, ResumedStream | undefined>();

  constructor(private readonly store: EventStore) {
    // Optional in the SDK's contract, and the SDK behaves differently without it: mirror the store's choice.
    const lookup = store.getStreamIdForEventId?.bind(store);
    if (lookup) this.getStreamIdForEventId = lookup;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    if (this.paused) return Promise.resolve(`replayed_${++this.ignored}`);
    return this.store.storeEvent(streamId, message);
  }

  replayEventsAfter(lastEventId: string, options: { send: ReplaySend }): Promise<string> {
    return this.store.replayEventsAfter(lastEventId, options);
  }

  detach(streamId: string): void {
    this.detached.set(streamId, undefined);
  }

  async resumeDetached(lastEventId: string, stream: ResumedStream): Promise<boolean> {
    const streamId = await this.getStreamIdForEventId?.(lastEventId);
    if (streamId === undefined || !this.detached.has(streamId)) return false;
    await this.store.replayEventsAfter(lastEventId, {
      send: async (eventId, message) => stream.send(eventId, message),
    });
    if (this.detached.has(streamId)) this.detached.set(streamId, stream);
    else stream.end();
    return true;
  }

  forwardToResumed(streamId: string, eventId: string, message: JSONRPCMessage, last: boolean): void {
    const resumed = this.detached.get(streamId);
    resumed?.send(eventId, message);
    if (!last) return;
    this.detached.delete(streamId);
    resumed?.end();
  }
}
