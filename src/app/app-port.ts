// The one port hosts and transports serve an app through (stdio, the Fastify host, anything a user writes): build
// protocol servers, hear change events, describe the catalogue, and hand back what they serve so the app can stop
// it. The app never imports a host; a host needs nothing of the app beyond this.
import type { AuthInfo, Implementation, Server } from '@modelcontextprotocol/server';
import type { KilnConfig } from '../config/kiln-config.js';
import type { ProtocolEra } from '../context/context.js';
import type { JsonRpcErrorResponse } from '../errors/json-rpc-body.js';
import type { Logger } from '../logging/index.js';
import type { ChangeSink } from '../notifications/change-notifier.js';
import type { EnvelopeCall, EnvelopeCallAnswer } from '../protocol/direct-call.js';
import type { RequestHeaders } from '../protocol/header-param-check.js';
import type { ProtocolServerOptions } from '../protocol/protocol-server.js';
import type { SinkClient } from '../protocol/server-sink.js';
import type { SessionAnswer, SessionCall } from '../protocol/session-call.js';
import type { TaskWatch } from '../tasks/task-watch.js';
import type { HeaderCarrier, HostGauge, HostTelemetry } from '../telemetry/host-telemetry.js';
import type { AppCatalog } from './app-catalog.js';
import type { EdgeRefusal } from './edge-refusal.js';

export type {
  EnvelopeCall,
  EnvelopeCallAnswer,
  HeaderCarrier,
  HostGauge,
  HostTelemetry,
  ProtocolServerOptions,
  RequestHeaders,
  SessionAnswer,
  SessionCall,
  SinkClient,
};

/** What a host's `start` returns: something the app can stop. */
export interface HostHandle {
  /** Stop taking new work (close the listener); requests in flight go on. Called before the app drains. */
  stopAccepting?(): void | Promise<void>;
  /** Release everything (sessions, streams, sockets), after requests in flight answered or the drain timed out. */
  close(): Promise<void>;
}

/** A way to serve an app: `stdio()`, `http({ ... })` from `mcp-kiln/http`, or your own. */
export interface KilnHost<H extends HostHandle = HostHandle> {
  start(app: AppPort): Promise<H>;
}

/** What `serve` returns: the host's handle, whose `close()` stops this host only (with the app's drain). */
export type Serving<H extends HostHandle = HostHandle> = Omit<H, 'close' | 'stopAccepting'> & {
  close(): Promise<void>;
};

export interface AppPort {
  readonly serverInfo: Implementation;
  readonly config: KilnConfig;
  readonly logger: Logger;
  /** Requests being served right now. */
  readonly inFlight: number;
  /**
   * True from the moment the app begins to close: readiness answers 503 from then on, while hosts keep serving
   * through the ready grace (MCP_SHUTDOWN_READY_GRACE_MS) and the drain.
   */
  readonly draining: boolean;
  /** Resolves when the app's storage backend answers; rejects with its error otherwise. For readiness checks. */
  checkStorage(): Promise<void>;
  /** Records a refusal in the audit trail; undefined when the trail is off (MCP_AUDIT_LOG). */
  readonly auditRefusal: ((refusal: EdgeRefusal) => void) | undefined;
  /**
   * OpenTelemetry for hosts: run a request in the trace context its headers carry, and report open sessions and
   * streams. No-ops unless an OpenTelemetry SDK was registered before the app was created.
   */
  readonly telemetry: HostTelemetry;
  /** A protocol server for one connection (stdio, a 2025 session) or one request (2026-07-28 HTTP). */
  createServer(era: ProtocolEra, options?: ProtocolServerOptions): Server;
  /** Hears every list-changed and resource-updated event the app publishes; returns the function that detaches. */
  onChange(sink: ChangeSink): () => void;
  /**
   * Where change events reach the client of one protocol server (its connection, or a live 2025 session). Say who the
   * client runs as (`{ tenantId }`) and resource events scoped to other tenants never reach it.
   */
  sinkFor(server: Server, era: ProtocolEra, client?: SinkClient): ChangeSink;
  /**
   * The scopes a 403 `insufficient_scope` challenge names when `authInfo` does not meet what `message` (a parsed
   * JSON-RPC request, or a batch) asks for: a tool's, resource's or prompt's @Scopes. Undefined when it does.
   */
  scopeChallenge(message: unknown, authInfo: AuthInfo | undefined): readonly string[] | undefined;
  /** What the app serves, as pages and tools describe it. */
  catalog(): AppCatalog;
  /**
   * 2026-07-28 HTTP, before a request is served: the -32020 answer (send it with HTTP 400) for a tools/call whose
   * `Mcp-Param-*` headers are missing, malformed or disagree with the arguments they mirror; undefined otherwise.
   * `headers` are keyed in lower case, as Node gives them.
   */
  headerParamMismatch(message: unknown, headers: RequestHeaders): JsonRpcErrorResponse | undefined;
  /**
   * 2026-07-28 HTTP fast path: runs a tools/call, resources/read or prompts/get straight through the operation runner,
   * with no protocol server. The host has validated the request as the SDK's dispatch would and sends only requests
   * that cannot stream (no progress token, no log level) and carry no retry fields; it encodes the answer itself.
   * Rejects with the error a protocol server's handler would throw.
   */
  runEnvelopeCall(call: EnvelopeCall): Promise<EnvelopeCallAnswer>;
  /**
   * The Tasks extension's status notifications for the caller `authInfo` names: its tasks as they stand, and which
   * status changes (`ChangeSink.taskStatus`) are its own. Undefined when the app serves no task tool.
   */
  watchTasks(authInfo: AuthInfo | undefined): TaskWatch | undefined;
  /**
   * 2025 direct path (an HTTP session, a stdio connection): runs a tools/call, resources/read or prompts/get straight
   * through the operation runner, as the session's protocol server would (its client capabilities), and answers with
   * the response that server would send (the tool result projected for the 2025 wire, a handler's throw as its error
   * response). The host passes only requests `sessionCallOf` takes; an input_required round comes back as is, for the
   * host to hand to the session's server.
   */
  runSessionCall(call: SessionCall): Promise<SessionAnswer>;
}
