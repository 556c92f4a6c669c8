// Everything the fast path relies on that the SDK does not promise as public API, in one file and pinned by
// test/http/fast-path-guards.test.ts: how a long-lived Server is bound to the 2026-07-28 era, which HTTP status the
// SDK gives an error its dispatch ladder answers, which envelopes and headers its per-request entry accepts as is,
// and how its dispatch encodes the answer of a call it did not dispatch (the direct path's encoder).
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  type Implementation,
  LOG_LEVEL_META_KEY,
  PerRequestHTTPServerTransport,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  type Server,
} from '@modelcontextprotocol/server';

export const ENVELOPE_REVISION = '2026-07-28';

type Classification = ConstructorParameters<typeof PerRequestHTTPServerTransport>[0]['classification'];

/** What the SDK's edge classifier says of a well-formed 2026-07-28 message; the protocol layer checks it per message. */
export const ENVELOPE_CLASSIFICATION: Classification = Object.freeze({ era: 'modern', revision: ENVELOPE_REVISION });

/**
 * `Server.connect` binds a server to the era of a PerRequestHTTPServerTransport's classification (it recognises the
 * transport by `instanceof`), which is how the SDK's own entry marks its per-request servers envelope-era. A transport
 * that extends it gets a long-lived server bound the same way, with no private setter. Subclasses replace every
 * member they serve with (start, send, close); the base class's own single-exchange state is never used.
 */
export abstract class EnvelopeBoundTransport extends PerRequestHTTPServerTransport {
  constructor() {
    super({ classification: ENVELOPE_CLASSIFICATION, responseMode: 'auto' });
  }
}

/** Fails at boot, not per request, when the SDK stopped binding servers the way EnvelopeBoundTransport relies on. */
export function assertEnvelopeBound(server: Server): void {
  const bound = server.getNegotiatedProtocolVersion();
  if (bound !== ENVELOPE_REVISION) {
    throw new Error(
      `The HTTP fast path expected its server bound to ${ENVELOPE_REVISION} but it is bound to ${bound ?? 'nothing'}: ` +
        'the SDK changed how it binds servers; set MCP_HTTP_FAST_PATH=off and report it.',
    );
  }
}

/**
 * The SDK's LADDER_ERROR_HTTP_STATUS (not exported): an error sent while the message is being delivered (before any
 * handler runs) is a ladder rejection and gets its own status; a missing client capability always does.
 */
const LADDER_STATUS: Readonly<Record<number, number>> = {
  [ProtocolErrorCode.ParseError]: 400,
  [ProtocolErrorCode.InvalidRequest]: 400,
  [ProtocolErrorCode.MethodNotFound]: 404,
  [ProtocolErrorCode.UnsupportedProtocolVersion]: 400,
  [ProtocolErrorCode.MissingRequiredClientCapability]: 400,
  // HEADER_MISMATCH_ERROR_CODE (SEP-2243), not exported either.
  [-32020]: 400,
};

/** The HTTP status of a JSON-RPC error response, as the SDK's per-request transport chooses it. */
export function errorHttpStatus(code: number, inDispatchWindow: boolean): number {
  if (!inDispatchWindow && code !== ProtocolErrorCode.MissingRequiredClientCapability) return 200;
  return LADDER_STATUS[code] ?? 200;
}

/** The envelope keys the fast path lets through; a request with any other `_meta` key takes the SDK path. */
export const ENVELOPE_KEYS: ReadonlySet<string> = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  'progressToken',
]);

/**
 * The body field each method's Mcp-Name header must equal (SEP-2243; the SDK's validateStandardRequestHeaders is not
 * exported). Methods not listed carry no Mcp-Name.
 */
export const MCP_NAME_SOURCE: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/**
 * Methods whose every answer comes from the connected server's dispatch (no entry-level work such as the listen
 * router, server/discover's install, or scope challenges of an McpServer) and that need no client capability.
 */
export const SERVER_DISPATCHED_METHODS: ReadonlySet<string> = new Set([
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

/** A JSON-RPC answer as the SDK's per-request transport writes it: status and serialized body. */
export interface EncodedAnswer {
  readonly status: number;
  readonly body: string;
}

type Json = Record<string, unknown>;
type CacheHint = { readonly ttlMs?: number; readonly cacheScope?: string };

/** The serverInfo stamp of every answer, with its JSON written once (`answerStamp`). */
export interface AnswerStamp {
  readonly serverInfo: Implementation;
  /** `,"_meta":{"io.modelcontextprotocol/serverInfo":…}`, as appended to a result without `_meta`. */
  readonly metaJson: string;
}

export function answerStamp(serverInfo: Implementation): AnswerStamp {
  return { serverInfo, metaJson: `,"_meta":${JSON.stringify({ [SERVER_INFO_META_KEY]: serverInfo })}` };
}

/**
 * The SDK's answer to a handler's result of tools/call, resources/read or prompts/get on 2026-07-28, as its dispatch
 * builds it: the input_required checks (at-least-one, the request's declared capabilities), the tool result's text
 * fallback and contentless normalisation, then the encode contract (resultType, cache fields on resources/read, the
 * serverInfo stamp). What the SDK's result schema would strip, Kiln's pipeline never produces (the diff test).
 */
export function encodeCallAnswer(
  method: string,
  id: string | number,
  result: Json,
  stamp: AnswerStamp,
  capabilities: ClientCapabilities | undefined,
  cacheHint: CacheHint | undefined,
): EncodedAnswer {
  if (result.resultType === 'input_required') {
    const refusal = inputRequiredRefusal(method, result, capabilities);
    if (refusal) return encodeCallError(id, refusal);
    return answer(id, stampServerInfo(result, stamp.serverInfo));
  }
  const completed = method === 'tools/call' ? contentlessNormalised(textFallback(result)) : result;
  const appended = appendedJson(method, completed, stamp, cacheHint);
  if (appended !== undefined) {
    // The SDK's encode spreads the result and adds each key after the handler's own: the same JSON, in one pass.
    const json = JSON.stringify(completed);
    if (json.length > 2)
      return {
        status: 200,
        body: `{"result":${json.slice(0, -1)}${appended}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`,
      };
  }
  let encoded = completed;
  if (encoded.resultType === undefined) encoded = { ...encoded, resultType: 'complete' };
  if (method === 'resources/read' && encoded.resultType === 'complete') {
    encoded = {
      ...encoded,
      ttlMs: validTtl(encoded.ttlMs) ?? validTtl(cacheHint?.ttlMs) ?? 0,
      cacheScope: validScope(encoded.cacheScope) ?? validScope(cacheHint?.cacheScope) ?? 'private',
    };
  }
  return answer(id, stampServerInfo(encoded, stamp.serverInfo));
}

function answer(id: string | number, result: Json): EncodedAnswer {
  return { status: 200, body: JSON.stringify({ result, jsonrpc: '2.0', id }) };
}

/**
 * What the encode adds to a completed result that holds none of the keys it adds (resultType, the cache fields of a
 * read, _meta), as JSON to append; undefined when the result holds any of them, which takes the spreading route.
 */
function appendedJson(method: string, result: Json, stamp: AnswerStamp, cacheHint: CacheHint | undefined) {
  if ('resultType' in result || '_meta' in result) return undefined;
  if (method !== 'resources/read') return `,"resultType":"complete"${stamp.metaJson}`;
  if ('ttlMs' in result || 'cacheScope' in result) return undefined;
  const ttlMs = validTtl(cacheHint?.ttlMs) ?? 0;
  const cacheScope = validScope(cacheHint?.cacheScope) ?? 'private';
  return `,"resultType":"complete","ttlMs":${ttlMs},"cacheScope":"${cacheScope}"${stamp.metaJson}`;
}

/** The SDK's error answer to a handler's throw; a missing client capability is the one a 400 carries. */
export function encodeCallError(id: string | number, error: unknown): EncodedAnswer {
  const { code: thrown, message, data } = (error ?? {}) as { code?: unknown; message?: string; data?: unknown };
  let code = Number.isSafeInteger(thrown) ? (thrown as number) : ProtocolErrorCode.InternalError;
  let text = message ?? 'Internal error';
  // The -32042 error of earlier revisions never reaches the 2026-07-28 wire.
  if (error instanceof ProtocolError && code === ProtocolErrorCode.UrlElicitationRequired) {
    code = ProtocolErrorCode.InternalError;
    text = `URL elicitation cannot be signalled by throwing UrlElicitationRequiredError on protocol revision ${ENVELOPE_REVISION}: return inputRequired({ inputRequests: { …: inputRequired.elicitUrl(...) } }) from the handler instead. The urlElicitationRequired error (-32042) of earlier revisions is not available on this revision.`;
  }
  // The 2026-07-28 codec's error-code mapping: the retired resource-not-found code goes out as invalid params.
  if (code === -32002) code = ProtocolErrorCode.InvalidParams;
  const answer = { jsonrpc: '2.0', id, error: { code, message: text, ...(data !== undefined && { data }) } };
  return { status: errorHttpStatus(code, false), body: JSON.stringify(answer) };
}

/** The SDK's checks of an input_required return on 2026-07-28; the error it throws, or undefined when it passes. */
function inputRequiredRefusal(
  method: string,
  result: Json,
  declared: ClientCapabilities | undefined,
): Error | undefined {
  const requests = isPlainObject(result.inputRequests) ? result.inputRequests : undefined;
  const hasRequests = requests !== undefined && Object.keys(requests).length > 0;
  if (!hasRequests && typeof result.requestState !== 'string') {
    return new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Handler for ${method} returned an input-required result with neither inputRequests nor requestState (every InputRequiredResult must include at least one of the two)`,
    );
  }
  for (const [key, entry] of Object.entries(requests ?? {})) {
    const kind = isPlainObject(entry) && typeof entry.method === 'string' ? entry.method : undefined;
    const required = kind === undefined ? undefined : requiredCapabilities(kind, entry as Json);
    if (kind === undefined || required === undefined) {
      return new ProtocolError(
        ProtocolErrorCode.InternalError,
        kind === undefined
          ? `Handler for ${method} returned an invalid input request '${key}': each inputRequests entry must be an embedded elicitation/create, sampling/createMessage, or roots/list request`
          : `Handler for ${method} returned an input request '${key}' of kind '${kind}', which is not an embedded request the 2026-07-28 revision defines`,
      );
    }
    const missing = missingCapabilities(required, declared as Json | undefined);
    if (missing) {
      return new ProtocolError(
        ProtocolErrorCode.MissingRequiredClientCapability,
        `Cannot request input '${key}' (${kind}): the request's client capabilities do not declare the required capability`,
        { requiredCapabilities: missing },
      );
    }
  }
  return undefined;
}

/** The capability an embedded request needs, in the ClientCapabilities shape; undefined for a kind not defined. */
function requiredCapabilities(kind: string, entry: Json): Json | undefined {
  const params = isPlainObject(entry.params) ? entry.params : undefined;
  switch (kind) {
    case 'elicitation/create':
      return params?.mode === 'url' ? { elicitation: { url: {} } } : { elicitation: { form: {} } };
    case 'sampling/createMessage':
      return params?.tools !== undefined || params?.toolChoice !== undefined
        ? { sampling: { tools: {} } }
        : { sampling: {} };
    case 'roots/list':
      return { roots: {} };
    default:
      return undefined;
  }
}

/** What of `required` the client did not declare; a bare `elicitation: {}` declares form mode. */
function missingCapabilities(required: Json, declared: Json | undefined): Json | undefined {
  const missing: Json = {};
  for (const [capability, requirement] of Object.entries(required)) {
    const value = declared?.[capability];
    if (value === undefined) {
      missing[capability] = requirement;
      continue;
    }
    if (!isPlainObject(requirement) || !isPlainObject(value)) continue;
    const members: Json = {};
    for (const [member, need] of Object.entries(requirement)) {
      const implied =
        capability === 'elicitation' && member === 'form' && value.form === undefined && value.url === undefined;
      if (value[member] === undefined && !implied) members[member] = need;
    }
    if (Object.keys(members).length > 0) missing[capability] = members;
  }
  return Object.keys(missing).length > 0 ? missing : undefined;
}

/** A non-object structuredContent gets a text block carrying it, unless the tool wrote text itself (SEP-2106). */
function textFallback(result: Json): Json {
  const structured = result.structuredContent;
  if (structured === undefined || isPlainObject(structured)) return result;
  const content = (result.content ?? []) as { type?: unknown }[];
  if (content.some((block) => block.type === 'text')) return result;
  return { ...result, content: [...content, { type: 'text', text: JSON.stringify(structured) }] };
}

/** A tool result without content (and of no other result family) gains `content: []`. */
function contentlessNormalised(result: Json): Json {
  if (result.content !== undefined || 'task' in result || 'inputRequests' in result || 'requestState' in result) {
    return result;
  }
  return { ...result, content: [] };
}

function stampServerInfo(result: Json, serverInfo: Implementation): Json {
  const meta = result._meta;
  if (meta === undefined) return { ...result, _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
  if (!isPlainObject(meta) || meta[SERVER_INFO_META_KEY] !== undefined) return result;
  return { ...result, _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo } };
}

function validTtl(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function validScope(value: unknown): string | undefined {
  return value === 'public' || value === 'private' ? value : undefined;
}

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
