// The one table of error codes Kiln emits. Standard JSON-RPC codes first; implementation-defined codes stay in
// -32000..-32019 because -32020..-32099 is reserved by the 2026-07-28 spec (and -32002 / -32042 must not be emitted).
// From the reserved range Kiln emits only what the spec defines: -32020 HeaderMismatch and -32021
// MissingRequiredClientCapability.
export const JsonRpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** 2026-07-28 HTTP: a header disagrees with the body it mirrors (SEP-2243). Answered with HTTP 400. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability it did not declare (SEP-2575), e.g. the Tasks extension. */
  MissingRequiredClientCapability: -32021,
  ServiceUnavailable: -32000,
  NotFound: -32001,
  Conflict: -32003,
  RateLimited: -32004,
  Timeout: -32005,
  Forbidden: -32006,
  Unauthorized: -32007,
  ValidationError: -32008,
  ConfigurationError: -32009,
  SerializationError: -32010,
  StorageError: -32011,
  Cancelled: -32012,
} as const;

export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];

const namesByCode = new Map<number, string>(Object.entries(JsonRpcErrorCode).map(([name, code]) => [code, name]));

/** The table name of a code (`NotFound`), or `undefined` for a code Kiln does not define. */
export function errorCodeName(code: number): string | undefined {
  return namesByCode.get(code);
}
