// Public error surface (`mcp-kiln/errors`).
export { KilnBootError } from './boot-error.js';
export * from './factories.js';
export { errorCodeName, JsonRpcErrorCode } from './json-rpc-error-code.js';
export { isProtocolError, McpError, type McpErrorData } from './mcp-error.js';
