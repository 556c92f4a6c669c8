// A 2025 session's answer as the SDK's dispatch writes it, for hosts that run a call directly (the HTTP session
// direct path, stdio): a tool result as its tools/call wrapper sends it (parsed with the 2025-11-25 wire schema, so
// keys come out in the schema's order: a loose result object has unknown keys after the known ones, strict content
// blocks drop unknown keys), and a handler's throw as its error response. The direct paths send the same bytes
// without the parse; test/http/session-direct-diff.test.ts and test/transports/stdio-direct-diff.test.ts hold them
// to the SDK's.
import type { JSONRPCErrorResponse, JSONRPCResultResponse, Result } from '@modelcontextprotocol/server';
import { isPlainObject } from './plain-object.js';

type Json = Record<string, unknown>;

const RESULT_KEYS = ['_meta', 'content', 'structuredContent', 'isError'];
const ANNOTATION_KEYS = ['audience', 'priority', 'lastModified'];
const CONTENTS_KEYS = ['uri', 'mimeType', '_meta', 'text', 'blob'];
const MEDIA_KEYS = ['type', 'data', 'mimeType', 'annotations', '_meta'];
const BLOCK_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ['type', 'text', 'annotations', '_meta'],
  image: MEDIA_KEYS,
  audio: MEDIA_KEYS,
  resource: ['type', 'resource', 'annotations', '_meta'],
  resource_link: ['name', 'title', 'icons', 'uri', 'description', 'mimeType', 'size', 'annotations', '_meta', 'type'],
};

/** The response to request `id` whose handler returned `result` (a tools/call result re-keyed as the SDK sends it). */
export function handshakeResultResponse(id: string | number, method: string, result: Result): JSONRPCResultResponse {
  return {
    result: method === 'tools/call' ? (toolResultOnHandshakeWire(result as Json) as Result) : result,
    jsonrpc: '2.0',
    id,
  };
}

/** The SDK's answer to a handler's throw on the 2025 wire. */
export function handshakeErrorResponse(id: string | number, error: unknown): JSONRPCErrorResponse {
  const { code: thrown, message, data } = (error ?? {}) as { code?: unknown; message?: string; data?: unknown };
  const code = Number.isSafeInteger(thrown) ? (thrown as number) : -32603;
  return {
    jsonrpc: '2.0',
    id,
    // The codec's error-code mapping: the retired resource-not-found code goes out as invalid params.
    error: {
      code: code === -32002 ? -32602 : code,
      message: message ?? 'Internal error',
      ...(data !== undefined && { data }),
    },
  };
}

/** The SDK's contentless normalisation, then the wire schema's key order. */
function toolResultOnHandshakeWire(result: Json): Json {
  const normalised = hasOtherFamily(result) || result.content !== undefined ? result : { ...result, content: [] };
  const out = pick(normalised, RESULT_KEYS);
  for (const key in normalised) if (!(key in out)) out[key] = normalised[key];
  if (Array.isArray(out.content)) out.content = out.content.map(block);
  return out;
}

function hasOtherFamily(result: Json): boolean {
  return 'task' in result || 'inputRequests' in result || 'requestState' in result;
}

function block(value: unknown): unknown {
  if (!isPlainObject(value) || typeof value.type !== 'string') return value;
  const keys = BLOCK_KEYS[value.type];
  if (!keys) return value;
  const out = pick(value, keys);
  if (isPlainObject(out.annotations)) out.annotations = pick(out.annotations, ANNOTATION_KEYS);
  if (value.type === 'resource' && isPlainObject(out.resource)) out.resource = pick(out.resource, CONTENTS_KEYS);
  return out;
}

/** The named keys present in `value`, in the given order. */
function pick(value: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}
