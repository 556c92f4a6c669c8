// Kiln's configuration: every setting read from one environment variable, validated once at boot. A bad value
// stops boot with a message naming the variable and what it accepts.
import { isIP } from 'node:net';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../logging/index.js';
import { EnvReader, fallbacksOver } from './env-reader.js';
import { DEFAULT_MAX_ENTRIES_PER_TENANT, DEFAULT_SWEEP_INTERVAL_MS } from './storage-defaults.js';

export const TRANSPORT_TYPES = ['stdio', 'http'] as const;
export const STORAGE_PROVIDER_TYPES = ['in-memory', 'filesystem', 'redis'] as const;
export const SESSION_MODES = ['stateless', 'stateful', 'auto'] as const;
export const AUTH_MODES = ['none', 'jwt', 'oauth'] as const;
const ON_OFF = ['on', 'off'] as const;

export type SessionMode = (typeof SESSION_MODES)[number];
export type AuthMode = (typeof AUTH_MODES)[number];

export interface HttpConfig {
  readonly host: string;
  readonly port: number;
  readonly endpointPath: string;
  /** How 2025-era traffic is served: per request, with Mcp-Session-Id sessions, or sessions when a client initializes. */
  readonly sessionMode: SessionMode;
  readonly staleSessionTimeoutMs: number;
  readonly maxSessions: number;
  /**
   * Of those, how many one principal may hold here (MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL; a tenth of the cap by
   * default). A principal is a token's client, subject and tenant, or the caller's address without auth. At its share
   * a principal's own oldest idle session is ended to make room; with none idle its initialize is refused.
   */
  readonly maxSessionsPerPrincipal: number;
  readonly resumability: {
    readonly enabled: boolean;
    readonly maxEvents: number;
    readonly ttlMs: number;
    /** MCP_HTTP_RESUMABILITY_RETRY_MS: the `retry` a 2025 session's SSE streams suggest for reconnecting (SEP-1699). */
    readonly retryMs: number;
  };
  /** Origins allowed besides the loopback ones; `undefined` means loopback only. */
  readonly allowedOrigins: readonly string[] | undefined;
  readonly maxBodyBytes: number;
  /** Deepest nesting of objects and arrays a request body may have (MCP_HTTP_MAX_JSON_DEPTH). */
  readonly maxJsonDepth: number;
  /** Open sockets at most; Node closes any connection beyond it at once (MCP_HTTP_MAX_CONNECTIONS). */
  readonly maxConnections: number;
  /** Open 2026-07-28 subscriptions/listen streams at most (MCP_HTTP_MAX_LISTEN_STREAMS). */
  readonly maxListenStreams: number;
  /** Of those, how many one principal may hold open here (MCP_HTTP_MAX_LISTEN_STREAMS_PER_PRINCIPAL; a tenth). */
  readonly maxListenStreamsPerPrincipal: number;
  /**
   * Requests one principal may have in flight here at once (MCP_MAX_IN_FLIGHT_PER_PRINCIPAL, 100 by default); past
   * it a request is refused with 429 before anything runs. Listen streams and 2025 GET streams are not counted.
   */
  readonly maxInFlightPerPrincipal: number;
  readonly timeouts: HttpTimeouts;
  /**
   * Serve plain 2026-07-28 requests on Kiln's fast path instead of the SDK's per-request handler
   * (MCP_HTTP_FAST_PATH=on|off); the SDK path still serves everything the fast path does not own.
   */
  readonly fastPath: boolean;
  /**
   * Offer the playground on the landing page, where a person calls tools, reads resources and gets prompts over this
   * endpoint (MCP_PLAYGROUND=on|off; off by default when NODE_ENV=production). Under auth it still needs the caller's
   * token, pasted into the page.
   */
  readonly playground: boolean;
  /**
   * Which proxies' X-Forwarded-* headers to believe (MCP_HTTP_TRUST_PROXY): none (false, the default), any (true),
   * the nearest N hops, or the listed addresses and CIDR ranges. Fastify's `trustProxy`: with it, the caller's address
   * and the URL the client used (protocol and host) come from the forwarded headers.
   */
  readonly trustProxy: TrustProxy;
  readonly serverCard: ServerCardConfig;
}

/** The Server Card (SEP-2127) a client may read before it connects. */
export interface ServerCardConfig {
  /** MCP_SERVER_CARD=on|off: serve it (on by default). */
  readonly enabled: boolean;
  /** MCP_SERVER_CARD_NAME: its reverse-DNS `name` (`com.example/notes`); derived from the host and server name if unset. */
  readonly name: string | undefined;
  /** MCP_SERVER_CARD_DESCRIPTION: its `description` (1–100 characters); derived from the instructions if unset. */
  readonly description: string | undefined;
}

/** How long a connection may take at each stage; none limits a response, so event streams stay open. */
export interface HttpTimeouts {
  /** From a request's first byte to the end of its headers. */
  readonly headersMs: number;
  /** From a request's first byte to the end of its body; a response (an event stream too) is not counted. */
  readonly requestMs: number;
  /** How long an idle keep-alive connection waits for its next request. */
  readonly keepAliveMs: number;
  /** A socket with no traffic either way for this long is closed, unless a call on it is still working quietly. */
  readonly idleMs: number;
  /** The interval of `:` comment lines on event streams, so proxies and clients do not take a quiet one for dead. */
  readonly sseKeepAliveMs: number;
}

export interface StdioConfig {
  /** MCP_STDIO_MAX_LINE_BYTES: the longest stdin line read; `undefined` keeps the transport's default (4 MiB). */
  readonly maxLineBytes: number | undefined;
  /**
   * Run plain calls of a 2025 connection directly (MCP_STDIO_FAST_PATH=on|off), as the HTTP host runs them in a 2025
   * session; the SDK's server still serves everything else.
   */
  readonly fastPath: boolean;
}

/** Where ctx.state (and, with Redis selected, the HTTP host's shared seams) live: one node or a Cluster. */
export type RedisConfig =
  | { readonly url: string; readonly keyPrefix?: string }
  | { readonly clusterNodes: readonly string[]; readonly keyPrefix?: string };

export interface RequestStateConfig {
  /** MCP_REQUEST_STATE_KEY: when set, handlers' requestState is sealed and verified; unset, it passes through raw. */
  readonly secret: string | undefined;
  /** How long a sealed state verifies after it was minted. */
  readonly ttlSeconds: number;
}

/**
 * What the app itself needs to know of authentication. Verifying tokens is the HTTP host's job, configured by the
 * mcp-kiln/auth module from its own variables (MCP_AUTH_SECRET_KEY, OAUTH_*, ...); stdio stays unauthenticated.
 */
export interface AuthSettings {
  /** MCP_AUTH_MODE: `none` serves HTTP without authentication; `jwt` and `oauth` require a bearer token. */
  readonly mode: AuthMode;
  /** MCP_AUTH_HIDE_FORBIDDEN_TOOLS: tools/list leaves out what an authenticated caller's scopes cannot call. */
  readonly hideForbiddenTools: boolean;
}

export interface KilnConfig {
  readonly transportType: (typeof TRANSPORT_TYPES)[number];
  readonly logLevel: LogLevel;
  /** MCP_LOG_FORMAT: `json` lines, `pretty` ones (pino-pretty), or `auto`: pretty on a terminal outside production. */
  readonly logFormat: LogFormat;
  /** MCP_LOG_REDACT_FIELDS: field names masked in logs on top of the built-in list (password, token, secret, ...). */
  readonly logRedactFields: readonly string[];
  readonly storage: (
    | { readonly type: 'in-memory' }
    | { readonly type: 'filesystem'; readonly path: string }
    | ({ readonly type: 'redis' } & RedisConfig)
  ) & {
    /** STORAGE_MAX_ENTRIES_PER_TENANT: live entries a tenant may hold before a write of a new key is refused. */
    readonly maxEntriesPerTenant: number;
    /** STORAGE_SWEEP_INTERVAL_MS: how often expired entries nobody reads again are removed. */
    readonly sweepIntervalMs: number;
  };
  readonly http: HttpConfig;
  readonly stdio: StdioConfig;
  readonly requestState: RequestStateConfig;
  readonly auth: AuthSettings;
  readonly tasks: TasksConfig;
  readonly shutdown: ShutdownConfig;
  readonly audit: AuditConfig;
  readonly usage: UsageConfig;
}

/** The audit trail: one record per tools/call, resources/read and prompts/get, refused ones included. */
export interface AuditConfig {
  /** MCP_AUDIT_LOG: `on` writes the trail (default `off`). */
  readonly enabled: boolean;
  /** MCP_AUDIT_LOG_PATH: the file the trail is appended to, as JSON lines; or pass createApp({ audit: { logger } }). */
  readonly path: string | undefined;
}

/** Usage accounting: calls, errors and time per tenant, definition and UTC day, kept in the storage backend. */
export interface UsageConfig {
  /** MCP_USAGE_ACCOUNTING: `on` counts every call (default `off`). */
  readonly enabled: boolean;
  /** MCP_USAGE_FLUSH_MS: how often an instance adds what it counted to the storage backend (default 5000). */
  readonly flushMs: number;
}

/** How an instance leaves: readiness off first, then a grace, then the drain (SIGTERM, SIGINT, app.close()). */
export interface ShutdownConfig {
  /**
   * MCP_SHUTDOWN_READY_GRACE_MS: how long the instance keeps serving after readiness turned 503, so a load balancer
   * or Kubernetes stops sending it traffic before it stops accepting (0, the default, stops at once).
   */
  readonly readyGraceMs: number;
  /** MCP_SHUTDOWN_DRAIN_MS: how long requests in flight (and running tasks) get to finish before closing anyway. */
  readonly drainMs: number;
}

/** Tasks of the Tasks extension: how long they are kept, how often clients should poll, how many a tenant may hold. */
export interface TasksConfig {
  /** MCP_TASKS_TTL_MS: how long a task is kept after it was created (its `ttlMs`). */
  readonly ttlMs: number;
  /** MCP_TASKS_POLL_INTERVAL_MS: the `pollIntervalMs` suggested to clients. */
  readonly pollIntervalMs: number;
  /** MCP_TASKS_MAX_PER_TENANT: tasks one tenant may hold (any status) before a new one is refused. */
  readonly maxPerTenant: number;
  /**
   * MCP_TASKS_MAX_PER_SUBJECT: of those, how many one caller may hold (half by default), so one user cannot take
   * the tenant's whole quota. The caller is the token's client and subject, or the address of an anonymous HTTP
   * caller; stdio has one caller and no share.
   */
  readonly maxPerSubject: number;
  /**
   * MCP_TASKS_LEASE_MS: how long a running task's instance may go silent before the task is reported failed. The
   * instance renews its lease (and looks for a cancellation from another instance) every third of it.
   */
  readonly leaseMs: number;
}

type Env = Readonly<Record<string, string | undefined>>;

const MINUTE = 60_000;
/** The SDK codec's HMAC key minimum. */
export const REQUEST_STATE_KEY_MIN_BYTES = 32;

/** Fastify's `trustProxy` values Kiln accepts from MCP_HTTP_TRUST_PROXY. */
export type TrustProxy = boolean | number | readonly string[];

/** `true`/`false`, a hop count, or a comma-separated list of IP addresses and CIDR ranges. */
function readTrustProxy(read: EnvReader): TrustProxy {
  const value = read.string('MCP_HTTP_TRUST_PROXY')?.trim();
  if (value === undefined || value === '' || /^(false|off|0)$/i.test(value)) return false;
  if (/^(true|on)$/i.test(value)) return true;
  if (/^\d+$/.test(value)) return read.integer('MCP_HTTP_TRUST_PROXY', 0, { min: 1, max: 100 });
  const entries = read.list('MCP_HTTP_TRUST_PROXY') ?? [];
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length > 0) {
    read.problem(
      `MCP_HTTP_TRUST_PROXY=${JSON.stringify(value)} is not valid: expected true, false, a hop count, or a ` +
        `comma-separated list of IP addresses and CIDR ranges (not ${bad.map((entry) => JSON.stringify(entry)).join(', ')}).`,
    );
  }
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** Reads and validates the configuration; throws KilnBootError listing every bad variable. */
export function loadConfig(env: Env = process.env, defaults: { sessionMode?: SessionMode } = {}): KilnConfig {
  const read = new EnvReader(env);
  const config = readConfig(read, env, defaults);
  read.assertValid();
  return config;
}

/**
 * The default of every setting loadConfig reads, as its code passes them: an empty environment, then one with Redis
 * storage for the settings read only then. The settings reference is generated from these.
 */
export function configFallbacks(): ReadonlyMap<string, unknown> {
  const redis = { STORAGE_PROVIDER_TYPE: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' };
  return fallbacksOver([{}, redis], (read, env) => readConfig(read, env, {}));
}

function readConfig(read: EnvReader, env: Env, defaults: { sessionMode?: SessionMode }): KilnConfig {
  const transportType = read.oneOf('MCP_TRANSPORT_TYPE', TRANSPORT_TYPES, 'stdio');
  const logLevel = read.oneOf('MCP_LOG_LEVEL', LOG_LEVELS, 'info');
  const logFormat = read.oneOf('MCP_LOG_FORMAT', LOG_FORMATS, 'auto');
  const logRedactFields = read.list('MCP_LOG_REDACT_FIELDS') ?? [];
  const storageType = read.oneOf('STORAGE_PROVIDER_TYPE', STORAGE_PROVIDER_TYPES, 'in-memory');
  const storagePath = read.string('STORAGE_FILESYSTEM_PATH');
  if (storageType === 'filesystem' && !storagePath) {
    read.problem(
      'STORAGE_FILESYSTEM_PATH is required when STORAGE_PROVIDER_TYPE=filesystem: set it to a directory path.',
    );
  }
  const endpointPath = read.string('MCP_HTTP_ENDPOINT_PATH') ?? '/mcp';
  if (!/^\/[\w\-./]*$/.test(endpointPath) || endpointPath === '/') {
    read.problem(`MCP_HTTP_ENDPOINT_PATH=${JSON.stringify(endpointPath)} is not valid: expected a path such as /mcp.`);
  }
  const maxSessions = read.integer('MCP_HTTP_MAX_SESSIONS', 1000, { min: 1, max: 1_000_000 });
  const maxListenStreams = read.integer('MCP_HTTP_MAX_LISTEN_STREAMS', 1024, { min: 1, max: 1_000_000 });
  const http: HttpConfig = {
    host: read.string('MCP_HTTP_HOST') ?? '127.0.0.1',
    port: read.integer('MCP_HTTP_PORT', 3010, { min: 0, max: 65_535 }),
    endpointPath,
    sessionMode: read.oneOf('MCP_SESSION_MODE', SESSION_MODES, defaults.sessionMode ?? 'auto'),
    staleSessionTimeoutMs: read.integer('MCP_STATEFUL_SESSION_STALE_TIMEOUT_MS', 30 * MINUTE, {
      min: 100,
      max: 24 * 60 * MINUTE,
    }),
    maxSessions,
    maxSessionsPerPrincipal: readShare(read, 'MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL', maxSessions, 10),
    resumability: {
      enabled: read.boolean('MCP_HTTP_RESUMABILITY', true),
      maxEvents: read.integer('MCP_HTTP_RESUMABILITY_MAX_EVENTS', 1000, { min: 1, max: 1_000_000 }),
      ttlMs: read.integer('MCP_HTTP_RESUMABILITY_TTL_MS', 5 * MINUTE, { min: 100, max: 24 * 60 * MINUTE }),
      retryMs: read.integer('MCP_HTTP_RESUMABILITY_RETRY_MS', 1000, { min: 10, max: 10 * MINUTE }),
    },
    allowedOrigins: read.list('MCP_ALLOWED_ORIGINS'),
    maxBodyBytes: read.integer('MCP_HTTP_MAX_BODY_BYTES', 1024 * 1024, { min: 1024, max: 64 * 1024 * 1024 }),
    maxJsonDepth: read.integer('MCP_HTTP_MAX_JSON_DEPTH', 64, { min: 4, max: 1000 }),
    maxConnections: read.integer('MCP_HTTP_MAX_CONNECTIONS', 10_000, { min: 1, max: 1_000_000 }),
    maxListenStreams,
    maxListenStreamsPerPrincipal: readShare(read, 'MCP_HTTP_MAX_LISTEN_STREAMS_PER_PRINCIPAL', maxListenStreams, 10),
    maxInFlightPerPrincipal: read.integer('MCP_MAX_IN_FLIGHT_PER_PRINCIPAL', 100, { min: 1, max: 1_000_000 }),
    timeouts: readHttpTimeouts(read),
    fastPath: read.oneOf('MCP_HTTP_FAST_PATH', ON_OFF, 'on') === 'on',
    // A development convenience first: a production deployment opts in rather than out.
    playground: read.oneOf('MCP_PLAYGROUND', ON_OFF, env.NODE_ENV === 'production' ? 'off' : 'on') === 'on',
    trustProxy: readTrustProxy(read),
    serverCard: readServerCard(read),
  };
  const stdio: StdioConfig = {
    maxLineBytes:
      read.raw('MCP_STDIO_MAX_LINE_BYTES') === undefined
        ? undefined
        : read.integer('MCP_STDIO_MAX_LINE_BYTES', 0, { min: 1024, max: 64 * 1024 * 1024 }),
    fastPath: read.oneOf('MCP_STDIO_FAST_PATH', ON_OFF, 'on') === 'on',
  };
  const storageLimits = {
    maxEntriesPerTenant: read.integer('STORAGE_MAX_ENTRIES_PER_TENANT', DEFAULT_MAX_ENTRIES_PER_TENANT, {
      min: 1,
      max: 100_000_000,
    }),
    sweepIntervalMs: read.integer('STORAGE_SWEEP_INTERVAL_MS', DEFAULT_SWEEP_INTERVAL_MS, {
      min: 1000,
      max: 24 * 60 * MINUTE,
    }),
  };
  const redis = storageType === 'redis' ? readRedis(read) : undefined;
  const requestState = readRequestState(read);
  const auth: AuthSettings = {
    mode: read.oneOf('MCP_AUTH_MODE', AUTH_MODES, 'none'),
    hideForbiddenTools: read.boolean('MCP_AUTH_HIDE_FORBIDDEN_TOOLS', false),
  };
  const maxTasksPerTenant = read.integer('MCP_TASKS_MAX_PER_TENANT', 100, { min: 1, max: 1_000_000 });
  const tasks: TasksConfig = {
    ttlMs: read.integer('MCP_TASKS_TTL_MS', 60 * MINUTE, { min: 1000, max: 7 * 24 * 60 * MINUTE }),
    pollIntervalMs: read.integer('MCP_TASKS_POLL_INTERVAL_MS', 1000, { min: 10, max: 10 * MINUTE }),
    maxPerTenant: maxTasksPerTenant,
    maxPerSubject: readShare(read, 'MCP_TASKS_MAX_PER_SUBJECT', maxTasksPerTenant, 2),
    leaseMs: read.integer('MCP_TASKS_LEASE_MS', 15_000, { min: 1000, max: 10 * MINUTE }),
  };
  const shutdown: ShutdownConfig = {
    readyGraceMs: read.integer('MCP_SHUTDOWN_READY_GRACE_MS', 0, { min: 0, max: 10 * MINUTE }),
    drainMs: read.integer('MCP_SHUTDOWN_DRAIN_MS', 10_000, { min: 0, max: 60 * MINUTE }),
  };
  const audit: AuditConfig = {
    enabled: read.oneOf('MCP_AUDIT_LOG', ON_OFF, 'off') === 'on',
    path: read.string('MCP_AUDIT_LOG_PATH'),
  };
  const usage: UsageConfig = {
    enabled: read.oneOf('MCP_USAGE_ACCOUNTING', ON_OFF, 'off') === 'on',
    flushMs: read.integer('MCP_USAGE_FLUSH_MS', 5000, { min: 100, max: 10 * MINUTE }),
  };
  return {
    transportType,
    logLevel,
    logFormat,
    logRedactFields,
    storage:
      storageType === 'filesystem'
        ? { type: 'filesystem', path: storagePath as string, ...storageLimits }
        : storageType === 'redis'
          ? { type: 'redis', ...(redis as RedisConfig), ...storageLimits }
          : { type: 'in-memory', ...storageLimits },
    http,
    stdio,
    requestState,
    auth,
    tasks,
    shutdown,
    audit,
    usage,
  };
}

/** The Server Card's settings; a name or description the card's schema would refuse stops boot. */
function readServerCard(read: EnvReader): ServerCardConfig {
  const name = read.string('MCP_SERVER_CARD_NAME');
  if (name !== undefined && !/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(name)) {
    read.problem(
      `MCP_SERVER_CARD_NAME=${JSON.stringify(name)} is not valid: expected a reverse-DNS namespace, one slash and a ` +
        'name, such as com.example/notes.',
    );
  }
  const description = read.string('MCP_SERVER_CARD_DESCRIPTION');
  if (description !== undefined && (description.length === 0 || description.length > 100)) {
    read.problem('MCP_SERVER_CARD_DESCRIPTION is not valid: expected 1 to 100 characters.');
  }
  return { enabled: read.oneOf('MCP_SERVER_CARD', ON_OFF, 'on') === 'on', name, description };
}

/** One principal's share of a cap: 1/`divisor` of it (at least 1) unless set, and never more than the cap. */
function readShare(read: EnvReader, variable: string, cap: number, divisor: number): number {
  return read.integer(variable, Math.max(1, Math.floor(cap / divisor)), { min: 1, max: cap });
}

function readRedis(read: EnvReader): RedisConfig | undefined {
  const url = read.string('REDIS_URL');
  const clusterNodes = read.list('REDIS_CLUSTER_NODES');
  const keyPrefix = read.string('REDIS_KEY_PREFIX');
  const prefix = keyPrefix === undefined ? {} : { keyPrefix };
  if (url !== undefined && clusterNodes !== undefined) {
    read.problem(
      'REDIS_URL and REDIS_CLUSTER_NODES are both set: set REDIS_URL for one node or REDIS_CLUSTER_NODES for a Cluster.',
    );
    return undefined;
  }
  if (url !== undefined) return { url, ...prefix };
  if (clusterNodes !== undefined && clusterNodes.length > 0) return { clusterNodes, ...prefix };
  read.problem(
    'STORAGE_PROVIDER_TYPE=redis needs REDIS_URL (redis://host:port) for one node or REDIS_CLUSTER_NODES ' +
      '(host:port,host:port,...) for a Cluster.',
  );
  return undefined;
}

function readHttpTimeouts(read: EnvReader): HttpTimeouts {
  const timeouts: HttpTimeouts = {
    headersMs: read.integer('MCP_HTTP_HEADERS_TIMEOUT_MS', 10_000, { min: 100, max: 10 * MINUTE }),
    requestMs: read.integer('MCP_HTTP_REQUEST_TIMEOUT_MS', 30_000, { min: 100, max: 60 * MINUTE }),
    keepAliveMs: read.integer('MCP_HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, { min: 100, max: 10 * MINUTE }),
    idleMs: read.integer('MCP_HTTP_IDLE_TIMEOUT_MS', 2 * MINUTE, { min: 100, max: 60 * MINUTE }),
    sseKeepAliveMs: read.integer('MCP_HTTP_SSE_KEEP_ALIVE_MS', 15_000, { min: 50, max: 10 * MINUTE }),
  };
  // Node refuses a headers timeout longer than the request timeout, and would cut a request still within it.
  if (timeouts.headersMs > timeouts.requestMs) {
    read.problem(
      `MCP_HTTP_HEADERS_TIMEOUT_MS (${timeouts.headersMs}) is longer than MCP_HTTP_REQUEST_TIMEOUT_MS ` +
        `(${timeouts.requestMs}): the headers are part of the request, so make it at most the request timeout.`,
    );
  }
  return timeouts;
}

function readRequestState(read: EnvReader): RequestStateConfig {
  const secret = read.string('MCP_REQUEST_STATE_KEY');
  const bytes = secret === undefined ? 0 : Buffer.byteLength(secret, 'utf8');
  if (secret !== undefined && bytes < REQUEST_STATE_KEY_MIN_BYTES) {
    // The key is a secret: the message gives its length, never its value.
    read.problem(
      `MCP_REQUEST_STATE_KEY is too short (${bytes} bytes): it must be at least ${REQUEST_STATE_KEY_MIN_BYTES} bytes ` +
        'of UTF-8. Generate one with `openssl rand -base64 32`, or unset it to leave requestState unsealed.',
    );
  }
  return {
    secret,
    ttlSeconds: read.integer('MCP_REQUEST_STATE_TTL_SECONDS', 900, { min: 1, max: 86_400 }),
  };
}
