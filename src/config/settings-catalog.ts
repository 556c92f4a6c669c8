// Every setting Kiln reads from the environment: its name, what it does and its default, grouped as the settings
// reference shows them. docs/reference/settings.md is generated from this list (`npm run docs:reference`), and
// test/docs/reference-pages.test.ts checks that the code reads exactly the settings listed here.

export interface SettingEntry {
  /** One setting, or a few that go together (an issuer and its audience, a client id and its secret). */
  readonly names: readonly string[];
  /** The values it takes and what it does, in Markdown. */
  readonly meaning: string;
  /**
   * The default, in Markdown, only where the code passes none as a value (conditional, derived, required, none). A
   * default the code passes is taken from the code (configFallbacks, authFallbacks) and never written here.
   */
  readonly default?: string;
  /** For auth settings: the MCP_AUTH_MODE they apply to (`jwt`, `oauth`, both). */
  readonly mode?: string;
}

/** The settings of the runtime, storage, HTTP, tasks, operations, audit and usage. */
export const GENERAL_SETTINGS: readonly SettingEntry[] = [
  { names: ['MCP_TRANSPORT_TYPE'], meaning: '`stdio`, `http`' },
  {
    names: ['MCP_LOG_LEVEL'],
    meaning: '`debug`, `info`, `notice`, `warning`, `error`, `critical`, `alert`, `emergency`',
  },
  {
    names: ['MCP_LOG_FORMAT'],
    meaning: '`json` lines, `pretty` ones (pino-pretty), or `auto`: pretty on a terminal outside production',
  },
  {
    names: ['MCP_LOG_REDACT_FIELDS'],
    meaning:
      'Comma-separated field names masked in the process log and the client mirror, on top of the built-in list (`password`, `token`, `secret`, `authorization`, …); matched case- and separator-insensitively',
    default: 'none',
  },
  { names: ['STORAGE_PROVIDER_TYPE'], meaning: '`in-memory`, `filesystem`, `redis`' },
  { names: ['STORAGE_FILESYSTEM_PATH'], meaning: 'a directory; required for `filesystem`', default: '—' },
  {
    names: ['REDIS_URL'],
    meaning:
      'one Redis node, `redis://host:port` (or `rediss://`); for `redis` storage, one of it and `REDIS_CLUSTER_NODES`',
    default: '—',
  },
  {
    names: ['REDIS_CLUSTER_NODES'],
    meaning: "a Redis Cluster's seed nodes, comma-separated `host:port`",
    default: '—',
  },
  {
    names: ['REDIS_KEY_PREFIX'],
    meaning: 'what every Kiln key in Redis starts with, so apps can share a Redis (no `{`)',
    default: 'none',
  },
  {
    names: ['STORAGE_MAX_ENTRIES_PER_TENANT'],
    meaning: 'live `ctx.state` entries one tenant may hold; a `set` of a new key beyond it fails',
  },
  {
    names: ['STORAGE_SWEEP_INTERVAL_MS'],
    meaning: 'how often expired entries nobody reads again are removed, 1000 to 86400000',
  },
  {
    names: ['MCP_HTTP_HOST', 'MCP_HTTP_PORT'],
    meaning: 'address and port to listen on (`0` picks a free port)',
    default: '`127.0.0.1` / `3010`',
  },
  { names: ['MCP_HTTP_ENDPOINT_PATH'], meaning: 'path of the MCP endpoint', default: '`/mcp`' },
  {
    names: ['MCP_SESSION_MODE'],
    meaning: 'how 2025-era clients are served: `stateless`, `stateful`, `auto`',
  },
  {
    names: ['MCP_STATEFUL_SESSION_STALE_TIMEOUT_MS'],
    meaning: 'idle time after which a 2025 session is evicted',
  },
  {
    names: ['MCP_HTTP_MAX_SESSIONS'],
    meaning: 'live 2025 sessions at most; a new one beyond that gets 503',
  },
  {
    names: ['MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL'],
    meaning:
      'of those, how many one principal (token, or address without auth) may hold here; at its share its own oldest idle session is ended, with none idle 429 `session_limit`',
    default: 'a tenth of the cap',
  },
  { names: ['MCP_HTTP_RESUMABILITY'], meaning: '`false` turns off SSE replay with `Last-Event-ID`' },
  {
    names: ['MCP_HTTP_RESUMABILITY_MAX_EVENTS', 'MCP_HTTP_RESUMABILITY_TTL_MS'],
    meaning: 'frames kept per session for replay, by count and age',
  },
  {
    names: ['MCP_HTTP_RESUMABILITY_RETRY_MS'],
    meaning:
      "the `retry` a 2025 session's SSE streams suggest, so a client whose stream was closed (`ctx.closeStream()`) knows when to resume",
  },
  {
    names: ['MCP_ALLOWED_ORIGINS'],
    meaning: 'comma-separated origins allowed besides loopback',
    default: 'loopback only',
  },
  { names: ['MCP_HTTP_MAX_BODY_BYTES'], meaning: 'largest request body; a larger one gets 413' },
  {
    names: ['MCP_HTTP_MAX_JSON_DEPTH'],
    meaning: 'deepest nesting of objects and arrays in a request body, 4 to 1000; deeper gets 400',
  },
  {
    names: ['MCP_HTTP_MAX_CONNECTIONS'],
    meaning: 'open sockets at most; Node closes any connection beyond it at once',
  },
  {
    names: ['MCP_HTTP_MAX_LISTEN_STREAMS'],
    meaning: 'open 2026-07-28 `subscriptions/listen` streams at most; one more gets 503',
  },
  {
    names: ['MCP_HTTP_MAX_LISTEN_STREAMS_PER_PRINCIPAL'],
    meaning: 'of those, how many one principal may hold open here; one more gets 429 `listen_limit`',
    default: 'a tenth of the cap',
  },
  {
    names: ['MCP_MAX_IN_FLIGHT_PER_PRINCIPAL'],
    meaning:
      'HTTP requests one principal may have in flight here at once; one more gets 429 `in_flight_limit` before it runs',
  },
  {
    names: ['MCP_HTTP_HEADERS_TIMEOUT_MS'],
    meaning: "time for a request's headers to arrive; later gets 408 and the socket closes",
  },
  {
    names: ['MCP_HTTP_REQUEST_TIMEOUT_MS'],
    meaning:
      'time for a whole request (headers and body) to arrive, at least the headers timeout; event streams are responses and not counted',
  },
  {
    names: ['MCP_HTTP_KEEP_ALIVE_TIMEOUT_MS'],
    meaning:
      "how long an idle keep-alive connection waits for its next request; keep it above a load balancer's idle timeout",
  },
  {
    names: ['MCP_HTTP_IDLE_TIMEOUT_MS'],
    meaning:
      'a socket silent both ways for this long is closed, unless a call on it is still working and its client reads what it was sent',
  },
  {
    names: ['MCP_HTTP_SSE_KEEP_ALIVE_MS'],
    meaning: "interval of `:` keep-alive comments on event streams (the 2025 stateless fallback keeps the SDK's 15000)",
  },
  {
    names: ['MCP_HTTP_TRUST_PROXY'],
    meaning:
      "which proxies' `X-Forwarded-*` headers to believe: `true`, a hop count, or a comma-separated list of addresses and CIDR ranges; with it, metadata, challenges, the landing page and `ctx.http` use the forwarded protocol, host and client ([docs/embedding.md](../embedding.md#behind-a-proxy-mcp_http_trust_proxy))",
    default: 'off',
  },
  {
    names: ['MCP_PLAYGROUND'],
    meaning:
      "`on` offers the [playground](../guide/http.md#the-playground) on the landing page, `off` leaves it out; under auth it still needs the caller's token",
    default: '`off` when `NODE_ENV=production`, else `on`',
  },
  {
    names: ['MCP_HTTP_FAST_PATH'],
    meaning:
      "`on` serves plain 2026-07-28 requests on Kiln's fast path and runs plain calls in 2025 sessions directly (see [the fast paths](../performance.md#the-fast-paths)); `off` sends everything through the SDK's per-request handler and session transport",
  },
  {
    names: ['MCP_STDIO_FAST_PATH'],
    meaning:
      "`on` runs plain calls on a 2025 stdio connection directly (see [the fast paths](../performance.md#the-fast-paths)); `off` sends every message through the SDK's stdio transport and dispatch",
  },
  {
    names: ['MCP_STDIO_MAX_LINE_BYTES'],
    meaning: 'longest stdin line on stdio, 1024 to 67108864; a longer one gets `-32600` and is skipped',
    default: '`4194304`',
  },
  {
    names: ['MCP_REQUEST_STATE_KEY'],
    meaning: 'a secret of at least 32 bytes that seals `requestState`; unset, it is not sealed',
    default: '—',
  },
  {
    names: ['MCP_REQUEST_STATE_TTL_SECONDS'],
    meaning: 'how long a sealed `requestState` stays valid, 1 to 86400',
  },
  {
    names: ['MCP_AUTH_MODE'],
    meaning:
      '`none`, `jwt` or `oauth`: whether HTTP requires bearer tokens (see [Authentication and scopes](../guide/auth.md#authentication-and-scopes))',
  },
  {
    names: ['MCP_AUTH_HIDE_FORBIDDEN_TOOLS'],
    meaning: "`true` makes `tools/list` leave out the tools an authenticated caller's scopes cannot call",
  },
  {
    names: ['MCP_TASKS_TTL_MS'],
    meaning:
      "a task's `ttlMs`: how long it is kept after creation (work still running then is stopped), 1000 to 604800000",
  },
  { names: ['MCP_TASKS_POLL_INTERVAL_MS'], meaning: 'the `pollIntervalMs` suggested to clients' },
  {
    names: ['MCP_TASKS_MAX_PER_TENANT'],
    meaning: 'tasks one tenant may hold (any status) before a new one is refused (`task_limit_reached`)',
  },
  {
    names: ['MCP_TASKS_MAX_PER_SUBJECT'],
    meaning: 'of those, how many one caller (token subject, or address of an anonymous HTTP caller) may hold',
    default: "half the tenant's",
  },
  {
    names: ['MCP_TASKS_LEASE_MS'],
    meaning:
      'how long the instance running a task may go silent before readers report it `failed` (`task_owner_lost`); it renews every third of it and looks for cancellations then',
  },
  {
    names: ['MCP_SERVER_CARD'],
    meaning:
      'serve the Server Card (SEP-2127) at `<endpoint>/server-card`, `/.well-known/mcp.json` and in the catalog at `/.well-known/mcp/catalog.json` (`on`/`off`)',
  },
  {
    names: ['MCP_SERVER_CARD_NAME'],
    meaning: "the card's reverse-DNS `name` (`com.example/notes`)",
    default: 'the host reversed, `/`, the server name',
  },
  {
    names: ['MCP_SERVER_CARD_DESCRIPTION'],
    meaning: "the card's `description` (1–100 characters)",
    default: "the instructions' first sentence",
  },
  {
    names: ['MCP_SHUTDOWN_READY_GRACE_MS'],
    meaning:
      'on SIGTERM (or `app.close()`), how long the instance keeps serving after `/readyz` turned 503, so a load balancer stops sending it traffic first',
  },
  {
    names: ['MCP_SHUTDOWN_DRAIN_MS'],
    meaning: 'then how long requests in flight and running tasks get to finish before the instance closes anyway',
  },
  {
    names: ['MCP_AUDIT_LOG'],
    meaning:
      'write the audit trail: one JSON line per tools/call, resources/read and prompts/get, refusals included (`on`/`off`)',
  },
  {
    names: ['MCP_AUDIT_LOG_PATH'],
    meaning: 'the file the audit trail is appended to (or pass `createApp({ audit: { logger } })`)',
    default: 'none',
  },
  {
    names: ['MCP_USAGE_ACCOUNTING'],
    meaning: 'count calls, errors and time per tenant, definition and UTC day in the storage backend (`on`/`off`)',
  },
  {
    names: ['MCP_USAGE_FLUSH_MS'],
    meaning: 'how often an instance adds what it counted to the storage backend, 100 to 600000',
  },
];

/** The settings of bearer-token authentication over HTTP (MCP_AUTH_MODE=jwt or oauth). */
export const AUTH_SETTINGS: readonly SettingEntry[] = [
  {
    names: ['MCP_AUTH_SECRET_KEY'],
    mode: '`jwt`',
    meaning: 'HS256 shared secret, at least 32 bytes (development)',
    default: 'required',
  },
  {
    names: ['MCP_JWT_EXPECTED_ISSUER', 'MCP_JWT_EXPECTED_AUDIENCE'],
    mode: '`jwt`',
    meaning:
      '`iss` (any string) and `aud` a token must carry; jwt mode names no authorization server, so it serves no protected resource metadata',
    default: 'unchecked',
  },
  {
    names: ['OAUTH_ISSUER_URL'],
    mode: '`oauth`',
    meaning: "the authorization server's issuer (https; http only on loopback)",
    default: 'required',
  },
  {
    names: ['OAUTH_AUDIENCE'],
    mode: '`oauth`',
    meaning: "this server's canonical URI (RFC 8707): tokens must name it in `aud`",
    default: 'required',
  },
  {
    names: ['OAUTH_EXTRA_AUDIENCES'],
    mode: '`oauth`',
    meaning: 'other audiences to accept, comma-separated',
    default: 'none',
  },
  {
    names: ['OAUTH_JWKS_URI'],
    mode: '`oauth`',
    meaning: 'where the signing keys are',
    default: "discovered from the issuer's metadata",
  },
  {
    names: ['OAUTH_JWKS_COOLDOWN_MS'],
    mode: '`oauth`',
    meaning:
      'least time between two key fetches for an unknown `kid` (key rotation), and how long a failed fetch is remembered (requests meanwhile get 503 without fetching); at least 1000',
  },
  {
    names: ['OAUTH_JWKS_TIMEOUT_MS'],
    mode: '`oauth`',
    meaning: 'time limit of a key or metadata fetch',
  },
  {
    names: ['OAUTH_ALGORITHMS'],
    mode: '`oauth`',
    meaning: 'signature algorithms accepted; HS* and `none` are refused at boot',
    default: 'RS, PS, ES 256/384/512, EdDSA',
  },
  {
    names: ['OAUTH_TOKEN_TYPE'],
    mode: '`oauth`',
    meaning: 'a `typ` header tokens must carry, such as `at+jwt`',
    default: 'unchecked',
  },
  {
    names: ['OAUTH_INTROSPECTION_URL'],
    mode: '`oauth`',
    meaning:
      'for opaque access tokens: check each at this RFC 7662 endpoint instead of as a JWT (active, `aud` naming this server)',
    default: 'JWTs',
  },
  {
    names: ['OAUTH_INTROSPECTION_CLIENT_ID', 'OAUTH_INTROSPECTION_CLIENT_SECRET'],
    mode: '`oauth`',
    meaning: 'the credentials this server introspects with (client_secret_basic)',
    default: 'required with the URL',
  },
  {
    names: ['OAUTH_INTROSPECTION_CACHE_MS'],
    mode: '`oauth`',
    meaning:
      'how long an active answer is reused (never past `exp`; an inactive one at most 5 s); a revoked token is refused within it',
    default: '`30000`',
  },
  {
    names: ['MCP_AUTH_PRESET'],
    mode: 'both',
    meaning:
      'the claim mapping and checks of `entra`, `auth0`, `okta`, `keycloak`, `cognito` or `google` ([docs/identity-providers.md](../identity-providers.md)); explicit settings win',
  },
  { names: ['MCP_AUTH_TENANT_CLAIM'], mode: 'both', meaning: 'the claim naming the tenant', default: '`tid`' },
  {
    names: ['MCP_AUTH_SCOPE_CLAIMS'],
    mode: 'both',
    meaning: 'where scopes are read, comma-separated claim names or dotted paths (`realm_access.roles`)',
    default: '`scope,scp`',
  },
  {
    names: ['MCP_AUTH_CLIENT_ID_CLAIMS'],
    mode: 'both',
    meaning: 'where the client id is read, the first present winning',
    default: '`client_id,azp,cid`',
  },
  {
    names: ['MCP_AUTH_TENANT_FALLBACK'],
    mode: 'both',
    meaning: 'a token without it: `none` (no tenant, `ctx.state` refuses), `subject`, or `fixed`',
  },
  { names: ['MCP_AUTH_FIXED_TENANT'], mode: 'both', meaning: 'the tenant of `fixed`', default: '—' },
  {
    names: ['MCP_AUTH_CLOCK_TOLERANCE_SECONDS'],
    mode: 'both',
    meaning: 'clock skew allowed on `exp` and `nbf`, 0 to 300',
  },
  {
    names: ['MCP_AUTH_SCOPE_HIERARCHY'],
    mode: 'both',
    meaning: 'scopes a scope implies, as `parent>child` pairs: `notes:admin>notes:write,notes:write>notes:read`',
    default: 'none',
  },
  {
    names: ['MCP_AUTH_CLAIMS'],
    mode: 'both',
    meaning: 'claims passed on to `ctx.auth.claims`, comma-separated',
    default: 'none',
  },
];
