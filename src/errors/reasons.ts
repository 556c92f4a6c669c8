// The one table of reasons Kiln itself puts in `error.data.reason`: its JSON-RPC code, what it means, and what the
// caller should do next. Clients match on these strings, so they are API: pinned by test/errors/reasons.test.ts and
// listed in docs/reference/reasons.md (npm run docs:reference). A tool's own reasons come from its `@Errors` contract, not from here.
import { JsonRpcErrorCode } from './json-rpc-error-code.js';

export interface ReasonEntry {
  readonly code: JsonRpcErrorCode;
  /** What went wrong, in one sentence (documentation: docs/reference/reasons.md). */
  readonly meaning: string;
  /** The caller's next move; the default `data.recovery.hint` when the throw site gives none. */
  readonly recovery: string;
}

const { ParseError, InvalidRequest, InvalidParams, InternalError, ServiceUnavailable, NotFound, Timeout, RateLimited } =
  JsonRpcErrorCode;
const { HeaderMismatch, MissingRequiredClientCapability } = JsonRpcErrorCode;
const { Forbidden, Unauthorized, ValidationError, ConfigurationError, SerializationError, StorageError, Conflict } =
  JsonRpcErrorCode;

export const KILN_REASONS = {
  // The JSON-RPC edge (stdio and HTTP alike).
  parse_error: {
    code: ParseError,
    meaning: 'The message is not valid JSON.',
    recovery: 'Send one JSON-RPC 2.0 message per line (stdio) or per request body (HTTP), as valid JSON.',
  },
  invalid_message: {
    code: InvalidRequest,
    meaning: 'The message is JSON but not a valid JSON-RPC 2.0 request, notification or response.',
    recovery: 'Send an object with jsonrpc "2.0", a method name, an object for params and a string or number id.',
  },
  message_too_large: {
    code: InvalidRequest,
    meaning: 'The message is larger than the server accepts.',
    recovery: 'Send a smaller message; large payloads belong in resources, not in one request.',
  },
  not_acceptable: {
    code: InvalidRequest,
    meaning: 'The Accept header does not list the media types the MCP endpoint answers with.',
    recovery: 'Send Accept: application/json, text/event-stream on POST and Accept: text/event-stream on GET.',
  },
  unsupported_media_type: {
    code: InvalidRequest,
    meaning: 'The request body is not application/json.',
    recovery: 'Send the JSON-RPC message with Content-Type: application/json.',
  },
  nesting_too_deep: {
    code: InvalidRequest,
    meaning: 'The message nests objects and arrays deeper than the server accepts (MCP_HTTP_MAX_JSON_DEPTH).',
    recovery: 'Flatten the data: send fewer levels of nested objects and arrays, or pass deep data as a resource.',
  },
  forbidden_key: {
    code: InvalidRequest,
    meaning: 'The message contains a key the server refuses (__proto__, constructor or prototype).',
    recovery: 'Remove keys named __proto__, constructor or prototype from the message and send it again.',
  },
  // The HTTP layer, below JSON-RPC.
  invalid_http_request: {
    code: InvalidRequest,
    meaning: 'The HTTP request is malformed or breaks an HTTP limit (Host header, body framing, header size).',
    recovery: 'Send a well-formed HTTP/1.1 request: one valid Host, one body framing and headers within the limit.',
  },
  method_not_allowed: {
    code: InvalidRequest,
    meaning: 'The MCP endpoint does not serve this HTTP method.',
    recovery: 'Use POST for messages, GET for the 2025 event stream and DELETE to end a 2025 session.',
  },
  request_timeout: {
    code: Timeout,
    meaning: "The request's headers or body did not arrive within the server's time limit.",
    recovery: 'Send the whole request promptly; a client on a slow link should send smaller bodies.',
  },
  header_mismatch: {
    code: HeaderMismatch,
    meaning:
      'An Mcp-Param-* header of a 2026-07-28 HTTP request is missing, malformed or disagrees with the argument it mirrors.',
    recovery:
      "Send every header parameter the tool's inputSchema designates (x-mcp-header) with the argument's value, Base64-wrapped as =?base64?…?= when it is not plain ASCII.",
  },
  listen_limit: {
    code: ServiceUnavailable,
    meaning:
      'This instance holds as many subscriptions/listen streams as it is configured to (MCP_HTTP_MAX_LISTEN_STREAMS; HTTP 503), or the caller holds its share of them (MCP_HTTP_MAX_LISTEN_STREAMS_PER_PRINCIPAL; HTTP 429, data.share "principal").',
    recovery: 'Close a listen stream you no longer need, or retry after the Retry-After delay.',
  },
  in_flight_limit: {
    code: RateLimited,
    meaning:
      'The caller already has as many requests in flight on this instance as one caller may (MCP_MAX_IN_FLIGHT_PER_PRINCIPAL); this one was not run.',
    recovery: 'Wait for one of your requests to answer, then send this one again: it was refused before it ran.',
  },
  // Call policies (@RateLimit, @Quota).
  rate_limited: {
    code: RateLimited,
    meaning:
      'The call is over a @RateLimit (data.limit calls per data.windowMs, counted by data.by); it was not run. HTTP 429 with Retry-After on 2026-07-28.',
    recovery: 'Wait data.retryAfterMs milliseconds, then call again: the call did not run.',
  },
  quota_exceeded: {
    code: RateLimited,
    meaning:
      'The caller has used its @Quota for this period (data.limit calls per data.period, counted by data.by); the call was not run. HTTP 429 with Retry-After on 2026-07-28.',
    recovery: 'Call again after data.resetsAt, when the period starts again, or ask the operator for a larger quota.',
  },
  // Bearer tokens and scopes (HTTP with MCP_AUTH_MODE=jwt or oauth; scopes on any transport with a principal).
  authentication_required: {
    code: Unauthorized,
    meaning: 'The request carries no bearer token, and this server requires one.',
    recovery:
      'Get an access token from the authorization server named in the resource metadata and send it as Authorization: Bearer.',
  },
  invalid_token: {
    code: Unauthorized,
    meaning: 'The bearer token is malformed, expired, not yet valid, badly signed or not issued for this server.',
    recovery: 'Get a new access token for this server (its resource URI is the audience) and send the request again.',
  },
  token_in_query: {
    code: InvalidRequest,
    meaning: 'The request carries an access token in the URL query string, which the server refuses.',
    recovery: 'Send the token in the Authorization: Bearer header only, and treat the exposed token as leaked.',
  },
  insufficient_scope: {
    code: Forbidden,
    meaning: 'The token is valid but lacks a scope the tool, resource or prompt requires.',
    recovery: 'Obtain a token carrying the scopes named in data.requiredScopes (or the challenge) and call again.',
  },
  forbidden_by_guard: {
    code: Forbidden,
    meaning:
      'A guard of the tool, resource or prompt (@UseGuards, or one the app applies everywhere) refused the call.',
    recovery: 'Do not retry it unchanged: this caller may not make this call. Ask the server operator for access.',
  },
  auth_unavailable: {
    code: ServiceUnavailable,
    meaning: "The server cannot verify tokens right now: the authorization server's keys could not be fetched.",
    recovery: 'Keep the token (it was not found invalid) and retry after the Retry-After delay.',
  },
  auth_options_invalid: {
    code: ConfigurationError,
    meaning: 'Authentication options given in code are not usable (verifier, resource URI or authorization servers).',
    recovery: 'Pass a verifier with a verify(token) method and absolute http(s) URLs for the resource and servers.',
  },
  // Sessions of the 2025-11-25 HTTP transport.
  session_required: {
    code: ServiceUnavailable,
    meaning: 'A 2025-era request arrived without the Mcp-Session-Id of an open session.',
    recovery: 'Send initialize first and repeat the session id it returns in the Mcp-Session-Id header.',
  },
  session_not_found: {
    code: NotFound,
    meaning: 'The Mcp-Session-Id names a session that ended, expired or never existed.',
    recovery: 'Send initialize (without Mcp-Session-Id) to start a new session.',
  },
  session_limit: {
    code: ServiceUnavailable,
    meaning:
      'This instance holds as many sessions as it is configured to (MCP_HTTP_MAX_SESSIONS; HTTP 503), or the caller holds its share of them with none idle to end (MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL; HTTP 429, data.share "principal").',
    recovery: 'Close an unused session (DELETE it) or retry after the Retry-After delay.',
  },
  shutting_down: {
    code: ServiceUnavailable,
    meaning: 'The server is shutting down and takes no new work.',
    recovery: 'Connect again shortly; another instance or the restarted server will answer.',
  },
  internal_error: {
    code: InternalError,
    meaning: 'The server failed in a way the caller cannot fix; the detail is in the server log.',
    recovery: 'Retry once; if it fails again, report the request id to the server operator.',
  },
  // Finding and preparing an operation.
  unknown_tool: {
    code: InvalidParams,
    meaning: 'No tool of that name is served here.',
    recovery: 'Call tools/list to see the tools this server offers, then call one of those by name.',
  },
  unknown_prompt: {
    code: InvalidParams,
    meaning: 'No prompt of that name is served here.',
    recovery: 'Call prompts/list to see the prompts this server offers.',
  },
  unknown_resource: {
    code: InvalidParams,
    meaning: 'No resource or resource template matches the URI.',
    recovery: 'Call resources/list and resources/templates/list to find a URI this server serves.',
  },
  invalid_arguments: {
    code: InvalidParams,
    meaning: 'The arguments of a tool, the arguments of a prompt or the variables of a resource URI are invalid.',
    recovery: 'Check the schema in the matching list result and call again with corrected arguments.',
  },
  unknown_skill: {
    code: InvalidParams,
    meaning: 'No skill of the Skills extension has its SKILL.md at that URI.',
    recovery: 'Call skills/list to see the skills this server serves, then ask for one of their URIs.',
  },
  not_a_directory: {
    code: InvalidParams,
    meaning: 'resources/directory/read was asked for a URI that is not a directory this server serves.',
    recovery: 'Read a skill directory (a SKILL.md URI without its last segment) or a subdirectory listed in one.',
  },
  invalid_params: {
    code: InvalidParams,
    meaning: "The params of a request do not match the method's schema in the MCP specification.",
    recovery: 'Correct the params named in the message (their names and types are in the MCP schema) and send again.',
  },
  // Asking the caller for more input (multi-round-trip requests and consent gates).
  input_required: {
    code: InvalidRequest,
    meaning: 'The handler asked for input, and a direct call has no client to answer it.',
    recovery: 'Call it through a connected client, or answer the round with createMockContext({ inputResponses }).',
  },
  client_capability_missing: {
    code: InvalidRequest,
    meaning: 'The handler needs input of a kind the client did not declare it can give.',
    recovery: 'Connect with a client that declares the capability named in data, or use the tool without it.',
  },
  consent_declined: {
    code: Forbidden,
    meaning: 'The person declined, cancelled or did not confirm the action a consent gate guards.',
    recovery: 'Do not retry the action unless the person asks for it again.',
  },
  invalid_request_state: {
    code: InvalidParams,
    meaning: 'The requestState of a retried round is tampered, expired, malformed or minted for another caller.',
    recovery: 'Start the request again without requestState and answer the new round.',
  },
  // Tasks (the 2026-07-28 Tasks extension).
  task_capability_missing: {
    code: MissingRequiredClientCapability,
    meaning: 'The call or tasks/* method needs the Tasks extension, which the request did not declare.',
    recovery:
      'Send the request with io.modelcontextprotocol/tasks under extensions in its client capabilities (_meta), then poll the task with tasks/get.',
  },
  unknown_task: {
    code: InvalidParams,
    meaning: 'No task with that id is held for this caller: it never existed, expired (ttlMs) or belongs to another.',
    recovery: 'Call the tool again to start a new task.',
  },
  task_limit_reached: {
    code: StorageError,
    meaning:
      'The tenant already holds as many tasks as the server allows (MCP_TASKS_MAX_PER_TENANT), or the caller its share of them (MCP_TASKS_MAX_PER_SUBJECT; data.share "subject").',
    recovery: 'Wait for tasks to expire (ttlMs) or cancel ones no longer needed, then call again.',
  },
  task_tenant_missing: {
    code: InvalidRequest,
    meaning: 'The call would run as a task, but the request has no tenant to keep the task under.',
    recovery: 'Authenticate with a token that carries the tenant claim.',
  },
  task_owner_lost: {
    code: InternalError,
    meaning:
      'The server instance running the task stopped (or went silent past MCP_TASKS_LEASE_MS) before it finished.',
    recovery: 'Call the tool again to start the work anew; what the lost run had done is unknown.',
  },
  task_interrupted: {
    code: InternalError,
    meaning: 'The server instance running the task shut down before the work finished.',
    recovery: 'Call the tool again to start the work anew.',
  },
  task_expired: {
    code: InternalError,
    meaning: 'The task was still running when its time to live (ttlMs) ran out, so the work was stopped.',
    recovery: 'Call the tool again; ask the operator for a longer MCP_TASKS_TTL_MS if the work needs it.',
  },
  task_failed: {
    code: InternalError,
    meaning: 'The task failed with an unexpected error in the server; the detail is in the server log.',
    recovery: 'Retry once; if it fails again, report the task id to the server operator.',
  },
  // ctx.state and its storage providers.
  invalid_state_key: {
    code: ValidationError,
    meaning: 'A ctx.state key is empty, too long or uses characters outside the allowed set.',
    recovery: 'Use keys of letters, digits and . _ - / : within the documented length.',
  },
  invalid_list_limit: {
    code: ValidationError,
    meaning: 'ctx.state.list was asked for a page size outside the allowed range.',
    recovery: 'Ask for a limit between 1 and the documented maximum.',
  },
  invalid_cursor: {
    code: ValidationError,
    meaning: 'The list cursor is malformed or belongs to another prefix or tenant.',
    recovery: 'Start the listing again without a cursor.',
  },
  invalid_entries: {
    code: ValidationError,
    meaning: 'ctx.state.setMany was given something other than a Map of key to value.',
    recovery: 'Pass a Map whose keys are state keys.',
  },
  invalid_ttl: {
    code: ValidationError,
    meaning: 'A ctx.state TTL is not a positive, finite number of seconds.',
    recovery: 'Pass ttl as a positive number of seconds, or leave it out.',
  },
  state_schema_mismatch: {
    code: ValidationError,
    meaning: 'A stored value does not match the schema the caller read it with.',
    recovery: 'Read it with the schema it was written with, or overwrite it.',
  },
  state_not_serializable: {
    code: SerializationError,
    meaning: 'A ctx.state value cannot be stored as JSON.',
    recovery: 'Store plain JSON values: objects, arrays, strings, finite numbers, booleans and null.',
  },
  state_quota_exceeded: {
    code: StorageError,
    meaning:
      'The tenant already holds as many ctx.state entries as the server allows (STORAGE_MAX_ENTRIES_PER_TENANT).',
    recovery: 'Delete keys that are no longer needed, or write short-lived values with a ttl so they expire.',
  },
  state_tenant_missing: {
    code: StorageError,
    meaning: 'ctx.state was used by a request that has no tenant.',
    recovery: 'Authenticate with a token that carries the tenant claim, or configure a fixed tenant.',
  },
  storage_io: {
    code: StorageError,
    meaning: 'The storage provider could not read or write.',
    recovery: 'Retry shortly; if it persists, report the request id to the server operator.',
  },
  storage_corrupt: {
    code: StorageError,
    meaning: 'A stored entry is unreadable.',
    recovery: 'Delete or overwrite the key; report the request id if it keeps happening.',
  },
  storage_unavailable: {
    code: StorageError,
    meaning: 'The storage backend (Redis) cannot be reached or did not answer in time.',
    recovery: 'Retry in a few seconds; calls that do not use ctx.state keep working meanwhile.',
  },
  invalid_idempotency_key: {
    code: InvalidParams,
    meaning:
      'The idempotency key in _meta["mcp-kiln/idempotency-key"] is not a string of 1 to 255 visible ASCII characters.',
    recovery: 'Send a key such as a UUID, the same one on every retry of the same call.',
  },
  idempotency_key_in_use: {
    code: Conflict,
    meaning:
      'An earlier call with this idempotency key has recorded no outcome: it is still running, or it ended without one and may have taken effect.',
    recovery:
      'Call again with the same key a little later to get its recorded result; if it stays in use, check whether the call took effect before using a new key.',
  },
  storage_outcome_unknown: {
    code: StorageError,
    meaning:
      'A storage write was sent but never confirmed (the backend stopped answering): it may or may not have taken effect. data.repeatable says whether repeating that same write is harmless.',
    recovery:
      'Check before calling again (read what the call would have written), or call again with the same idempotency key (_meta "mcp-kiln/idempotency-key") where the tool accepts one.',
  },
  storage_full: {
    code: StorageError,
    meaning: 'The storage backend is out of memory and refuses writes.',
    recovery: 'Delete keys that are no longer needed, or ask the operator to give the backend more memory.',
  },
  storage_failed: {
    code: StorageError,
    meaning: 'The storage backend refused the command for a reason the caller cannot fix.',
    recovery: 'Retry once; if it fails again, report the request id to the server operator.',
  },
  state_value_too_large: {
    code: StorageError,
    meaning: 'A ctx.state value is larger than the backend accepts.',
    recovery: 'Store a smaller value, or split it across several keys.',
  },
  storage_closed: {
    code: StorageError,
    meaning: 'The storage provider was closed (the server is shutting down).',
    recovery: 'Retry against a running instance.',
  },
  storage_path_missing: {
    code: ConfigurationError,
    meaning: 'Filesystem storage was selected without a path.',
    recovery: 'Set STORAGE_FILESYSTEM_PATH to a writable directory.',
  },
  storage_limit_invalid: {
    code: ConfigurationError,
    meaning: 'A storage limit given in code (entries per tenant, sweep interval) is not a valid number.',
    recovery: 'Pass a positive whole number of entries and a whole number of milliseconds (0 turns the sweep off).',
  },
  redis_options_invalid: {
    code: ConfigurationError,
    meaning: 'The Redis connection settings are not usable (URL, Cluster nodes or key prefix).',
    recovery: 'Set REDIS_URL to redis://host:port or REDIS_CLUSTER_NODES to host:port pairs, and a prefix without {.',
  },
  usage_accounting_off: {
    code: ConfigurationError,
    meaning: 'Usage was asked for (UsageLedger.daily) while usage accounting is off.',
    recovery: 'Set MCP_USAGE_ACCOUNTING=on; calls are counted from then on.',
  },
  invalid_day: {
    code: ValidationError,
    meaning: 'A day given to UsageLedger.daily is not a UTC date in YYYY-MM-DD form.',
    recovery: 'Pass the day as YYYY-MM-DD (UTC), or leave it out for today.',
  },
  storage_type_unknown: {
    code: ConfigurationError,
    meaning: 'STORAGE_PROVIDER_TYPE names a provider Kiln does not have.',
    recovery: 'Set STORAGE_PROVIDER_TYPE to in-memory, filesystem or redis.',
  },
} as const satisfies Record<string, ReasonEntry>;

export type KilnReason = keyof typeof KILN_REASONS;

/** The table entry of a reason Kiln defines; undefined for a tool's own contract reasons. */
export function reasonEntry(reason: string): ReasonEntry | undefined {
  return Object.hasOwn(KILN_REASONS, reason) ? KILN_REASONS[reason as KilnReason] : undefined;
}
