// JSON-RPC error bodies for answers a transport gives before any protocol server is involved (unparseable or
// invalid messages, refused HTTP requests): one shape, shared by stdio and HTTP, with a reason from the table.
import { KILN_REASONS, type KilnReason } from './reasons.js';

export type JsonRpcId = string | number | null;

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

export interface JsonRpcErrorResponse {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly error: JsonRpcErrorObject;
}

/** The error object for `reason`: its code from the table, `message` as given, the table's recovery hint. */
export function edgeError(
  reason: KilnReason,
  message: string,
  data: Readonly<Record<string, unknown>> = {},
): JsonRpcErrorObject {
  const entry = KILN_REASONS[reason];
  return { code: entry.code, message, data: { reason, recovery: { hint: entry.recovery }, ...data } };
}

export function jsonRpcErrorResponse(id: JsonRpcId, error: JsonRpcErrorObject): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error };
}
