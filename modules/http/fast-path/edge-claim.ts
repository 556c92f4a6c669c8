// Which POSTs the fast path owns, decided once per request from Fastify's parsed body and the headers: a 2026-07-28
// request the SDK's entry would pass through its ladder unchanged. Anything else (notifications, listen streams,
// header disagreements, base64 names, unknown envelope keys, batches) is left to the SDK path, which answers it.
import type { IncomingHttpHeaders } from 'node:http';
import { type JSONRPCRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import {
  ENVELOPE_KEYS,
  ENVELOPE_REVISION,
  MCP_NAME_SOURCE,
  SERVER_DISPATCHED_METHODS,
} from './sdk-envelope-binding.js';

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The request, when the fast path owns it. Checked without the SDK's zod guards (they run three times per request on
 * the SDK path and are expected to fail for two of them); the envelope's own values are still validated by the
 * protocol layer at dispatch, and a rejection there is re-checked against the SDK's edge classifier.
 */
export function claimEnvelopeRequest(body: unknown, headers: IncomingHttpHeaders): JSONRPCRequest | undefined {
  if (!isPlainObject(body)) return undefined;
  for (const key in body) if (!REQUEST_KEYS.has(key)) return undefined;
  const { jsonrpc, id, method, params } = body;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || !SERVER_DISPATCHED_METHODS.has(method)) return undefined;
  if (!isRequestId(id)) return undefined;
  if (!isPlainObject(params)) return undefined;
  const meta = params._meta;
  if (!isPlainObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== ENVELOPE_REVISION) return undefined;
  for (const key in meta) if (!ENVELOPE_KEYS.has(key)) return undefined;
  // The protocol layer drops a message its JSON-RPC guard refuses without answering; the edge answers those.
  if (meta.progressToken !== undefined && !isRequestId(meta.progressToken)) return undefined;
  if (!headersAgree(headers, method, params)) return undefined;
  return body as unknown as JSONRPCRequest;
}

/** The standard headers, exactly as sent, name what the body does; any difference is the SDK path's to answer. */
function headersAgree(headers: IncomingHttpHeaders, method: string, params: Record<string, unknown>): boolean {
  if (headers['mcp-protocol-version'] !== ENVELOPE_REVISION || headers['mcp-method'] !== method) return false;
  const field = MCP_NAME_SOURCE[method];
  const name = headers['mcp-name'];
  if (field === undefined) return name === undefined;
  const value = params[field];
  // A name the client had to encode (=?base64?…?=) never equals the body's plain value, so it falls back too.
  return typeof value === 'string' && name === value;
}

/** RequestId and ProgressToken alike: a string or an integer. */
function isRequestId(value: unknown): value is string | number {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
