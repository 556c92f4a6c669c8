// Writes a JSON-RPC error as a plain HTTP response, for answers Kiln gives before any protocol server is involved.
import type { ServerResponse } from 'node:http';
import { type JsonRpcErrorObject, jsonRpcErrorResponse } from '../../src/errors/index.js';

export function writeJsonRpcError(
  res: ServerResponse,
  status: number,
  error: JsonRpcErrorObject,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(jsonRpcErrorResponse(null, error)));
}
