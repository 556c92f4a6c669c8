// Public error surface (`mcp-kiln/errors`): the factories, the reasons table and the JSON-RPC body helpers. The three
// names every app uses (McpError, JsonRpcErrorCode, KilnBootError) live in the root entry only, one home per name.
export * from './factories.js';
export {
  edgeError,
  type JsonRpcErrorObject,
  type JsonRpcErrorResponse,
  type JsonRpcId,
  jsonRpcErrorResponse,
} from './json-rpc-body.js';
export { errorCodeName } from './json-rpc-error-code.js';
export { isProtocolError, type McpErrorData } from './mcp-error.js';
export { KILN_REASONS, type KilnReason, type ReasonEntry, reasonEntry } from './reasons.js';
