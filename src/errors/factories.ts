// Short constructors for the common failures, so handlers and services throw one shape.
import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { McpError, type McpErrorData } from './mcp-error.js';
import { KILN_REASONS, type KilnReason } from './reasons.js';

type Factory = (message: string, data?: McpErrorData, options?: { cause?: unknown }) => McpError;

const factory =
  (code: number): Factory =>
  (message, data, options) =>
    new McpError(code, message, data, options);

export const invalidParams = factory(JsonRpcErrorCode.InvalidParams);
export const invalidRequest = factory(JsonRpcErrorCode.InvalidRequest);
export const internalError = factory(JsonRpcErrorCode.InternalError);
export const notFound = factory(JsonRpcErrorCode.NotFound);
export const conflict = factory(JsonRpcErrorCode.Conflict);
export const forbidden = factory(JsonRpcErrorCode.Forbidden);
export const unauthorized = factory(JsonRpcErrorCode.Unauthorized);
export const rateLimited = factory(JsonRpcErrorCode.RateLimited);
export const timeout = factory(JsonRpcErrorCode.Timeout);
export const serviceUnavailable = factory(JsonRpcErrorCode.ServiceUnavailable);
export const validationError = factory(JsonRpcErrorCode.ValidationError);
export const serializationError = factory(JsonRpcErrorCode.SerializationError);
export const configurationError = factory(JsonRpcErrorCode.ConfigurationError);
export const storageError = factory(JsonRpcErrorCode.StorageError);

/**
 * An McpError for a reason of Kiln's own table: the code comes from the table, and so does the recovery hint unless
 * `data.recovery` gives a more specific one.
 */
export function kilnError(
  reason: KilnReason,
  message: string,
  data: Omit<McpErrorData, 'reason'> = {},
  options?: { cause?: unknown },
): McpError {
  const entry = KILN_REASONS[reason];
  return new McpError(entry.code, message, { reason, recovery: { hint: entry.recovery }, ...data }, options);
}
