// Public error surface (`mcp-kiln/errors`): the error class, the codes, the factories, the reasons table and the
// JSON-RPC body helpers. The root entry exports none of them, so each has one home.
export { KilnBootError } from './boot-error.js';
export * from './factories.js';
export {
  edgeError,
  type JsonRpcErrorObject,
  type JsonRpcErrorResponse,
  type JsonRpcId,
  jsonRpcErrorResponse,
} from './json-rpc-body.js';
export { errorCodeName, JsonRpcErrorCode } from './json-rpc-error-code.js';
export { isProtocolError, McpError, type McpErrorData } from './mcp-error.js';
export { KILN_REASONS, type KilnReason, type ReasonEntry, reasonEntry } from './reasons.js';
