// The SDK alone on node:http: createMcpHandler as its docs mount it, and the listener the benchmark's other node:http
// servers share. Imports nothing beyond what such a server needs, so the cold-start baseline can load it as it is.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import type { BenchServer } from './servers.js';

export function serveSdkOnNode(server: () => McpServer): Promise<BenchServer> {
  const handle = toNodeHandler(createMcpHandler(server));
  return listenOnNode((req, res) => void handle(req, res));
}

/** A node:http server on 127.0.0.1 (a free port) answering at /mcp. */
export async function listenOnNode(listener: RequestListener): Promise<BenchServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpointUrl: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
