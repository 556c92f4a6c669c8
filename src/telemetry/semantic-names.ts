// The names Kiln's spans and metrics carry: the OpenTelemetry MCP semantic conventions (gen-ai conventions, status
// Development) wherever they name the thing, `kiln.*` for what only Kiln knows (tenant, era, input repairs).

/** Span and metric attribute keys. */
export const ATTR = {
  mcpMethod: 'mcp.method.name',
  mcpSessionId: 'mcp.session.id',
  mcpResourceUri: 'mcp.resource.uri',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  /** `execute_tool` on tools/call, so tool spans read like other GenAI tool executions. */
  genAiOperation: 'gen_ai.operation.name',
  /** The JSON-RPC error code (as a string), or `tool_error` for an `isError` result. */
  errorType: 'error.type',
  rpcStatusCode: 'rpc.response.status_code',
  dbOperation: 'db.operation.name',
  requestId: 'kiln.request.id',
  tenantId: 'kiln.tenant.id',
  era: 'kiln.era',
  /** `ok`, `tool_error`, `error` or `input_required`. */
  outcome: 'kiln.outcome',
  /** The error's `data.reason` (Kiln's reasons table or the tool's @Errors contract). */
  errorReason: 'kiln.error.reason',
  resourceName: 'kiln.resource.name',
  /** What the input pipeline changed before the handler ran: key names and paths, never values. */
  inputDropped: 'kiln.input.dropped',
  inputAliased: 'kiln.input.aliased',
  inputRepaired: 'kiln.input.repaired',
  /** The tool, prompt or resource a call-policy metric counts (its name). */
  definitionName: 'kiln.definition.name',
  /** `hit` or `miss`: whether a cached definition's answer came from the cache. */
  cacheResult: 'kiln.cache.result',
} as const;

/** Metric instrument names. */
export const METRIC = {
  operationDuration: 'mcp.server.operation.duration',
  requestSize: 'kiln.operation.request.size',
  responseSize: 'kiln.operation.response.size',
  inputDroppedKeys: 'kiln.input.dropped_keys',
  inputAliasedKeys: 'kiln.input.aliased_keys',
  inputRepairs: 'kiln.input.repairs',
  storageDuration: 'kiln.storage.operation.duration',
  activeSessions: 'kiln.http.sessions.active',
  activeListenStreams: 'kiln.http.listen_streams.active',
  cacheLookups: 'kiln.cache.lookups',
  usageCalls: 'kiln.usage.calls',
  usageErrors: 'kiln.usage.errors',
  usageDuration: 'kiln.usage.duration',
  auditFailures: 'kiln.audit.failures',
} as const;

/** The methods Kiln opens an operation span for. */
export type TracedMethod = 'tools/call' | 'resources/read' | 'prompts/get' | 'completion/complete';

export type Outcome = 'ok' | 'tool_error' | 'error' | 'input_required';

/** The bucket boundaries (seconds) the conventions advise for `mcp.server.operation.duration`. */
export const OPERATION_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Storage calls are mostly sub-millisecond (memory) to a few milliseconds (Redis, disk). */
export const STORAGE_DURATION_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** Payload sizes in bytes, 64 B to 4 MiB. */
export const PAYLOAD_SIZE_BUCKETS = [64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304];

/** The instrumentation scope of every tracer and meter Kiln asks for. */
export const INSTRUMENTATION_SCOPE = 'mcp-kiln';
