// The one builder of the JSON-RPC error lines the stdio transport writes itself (parse errors, invalid requests,
// oversized lines): a single line of JSON, so stdout keeps carrying one JSON-RPC message per line and nothing else.
import type { JsonRpcErrorCode } from '../errors/index.js';

/** The id an answer carries: the request's own when it could be read, else null as JSON-RPC 2.0 §5 requires. */
export type AnsweredId = string | number | null;

export function jsonRpcErrorLine(code: JsonRpcErrorCode, message: string, id: AnsweredId = null): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;
}
