// Header parameters of the 2026-07-28 HTTP binding (SEP-2243), checked per tools/call before the call runs: when the
// body carries a value for a property the tool designates with `x-mcp-header`, the `Mcp-Param-<Name>` header must be
// present and decode to an equal value; a null or absent argument expects no header (one sent anyway is ignored).
// The SDK makes this check only for an McpServer it builds, so Kiln's host asks here; a failure is -32020, HTTP 400.
import type { CompiledTool } from '../definitions/compiled-tool.js';
import type { HeaderParam } from '../definitions/header-params.js';
import { edgeError, type JsonRpcErrorResponse, jsonRpcErrorResponse } from '../errors/json-rpc-body.js';

export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
// Canonical Base64: padded, standard alphabet. `SGVsbG8` (unpadded) and `SGVs!!!bG8=` are malformed, not literal.
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// A value sent as is must be visible ASCII (spaces and tabs inside allowed); anything else travels Base64-wrapped.
const PLAIN_VALUE = /^[\x20-\x7E\t]*$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * The -32020 answer for a tools/call whose header parameters disagree with its arguments; undefined when they agree,
 * when the message is no tools/call, or when the named tool designates no header parameter.
 */
export function headerParamMismatch(
  tools: ReadonlyMap<string, CompiledTool>,
  message: unknown,
  headers: RequestHeaders,
): JsonRpcErrorResponse | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params, id } = message as {
    method?: unknown;
    params?: { name?: unknown; arguments?: unknown };
    id?: unknown;
  };
  if (method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
  const tool = tools.get(params.name);
  if (!tool || tool.headerParams.length === 0) return undefined;
  for (const param of tool.headerParams) {
    const problem = checkOne(param, params.arguments, headers);
    if (problem === undefined) continue;
    const header = `Mcp-Param-${param.header}`;
    const error = edgeError('header_mismatch', `Bad Request: the request headers and body disagree: ${problem}`, {
      mismatch: { header, body: param.path.join('.') },
    });
    return jsonRpcErrorResponse(typeof id === 'string' || typeof id === 'number' ? id : null, error);
  }
  return undefined;
}

function checkOne(param: HeaderParam, args: unknown, headers: RequestHeaders): string | undefined {
  const value = valueAt(args, param.path);
  const bodyText = primitiveText(value);
  if (bodyText === undefined) return undefined;
  const header = `Mcp-Param-${param.header}`;
  const where = `${param.path.join('.')}=${JSON.stringify(value)}`;
  const raw = headers[header.toLowerCase()];
  if (raw === undefined) return `the body carries ${where} but the ${header} header is absent`;
  if (typeof raw !== 'string') return `the ${header} header is sent more than once`;
  const decoded = decodeHeaderValue(raw.trim());
  if (decoded === undefined) return `the ${header} header is not a plain ASCII value or valid =?base64?…?= wrapping`;
  const numeric = typeof value === 'number' && DECIMAL.test(decoded);
  const equal = numeric ? Number(decoded) === value : decoded === bodyText;
  return equal ? undefined : `the ${header} header decodes to ${JSON.stringify(decoded)} but the body carries ${where}`;
}

/** The value as its header would spell it; undefined when no header is expected (absent, null, not a primitive). */
function primitiveText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A header value as the client meant it: the Base64 payload when wrapped in the sentinel, else the value itself. */
function decodeHeaderValue(value: string): string | undefined {
  const wrapped = value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX) && value.length >= 11;
  if (!wrapped) return PLAIN_VALUE.test(value) ? value : undefined;
  const payload = value.slice(SENTINEL_PREFIX.length, -SENTINEL_SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
