// Writes a JSON-RPC error as a plain HTTP response, for answers Kiln gives before any protocol server is involved.
import type { ServerResponse } from 'node:http';

export function writeJsonRpcError(
  res: ServerResponse,
  status: number,
  error: { code: number; message: string; data?: unknown },
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error, id: null });
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}
