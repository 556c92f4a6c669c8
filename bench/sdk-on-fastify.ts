// The SDK alone on Fastify: createMcpHandler behind the SDK's Fastify adapter (@modelcontextprotocol/fastify, Fastify
// from node_modules), the request handed over raw as the adapter's docs show.
import { createMcpFastifyApp } from '@modelcontextprotocol/fastify';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import type { BenchServer } from './servers.js';

export async function serveSdkOnFastify(server: () => McpServer): Promise<BenchServer> {
  const handle = toNodeHandler(createMcpHandler(server));
  const fastify = createMcpFastifyApp();
  fastify.all('/mcp', async (request, reply) => {
    reply.hijack();
    await handle(request.raw, reply.raw, request.body);
  });
  const origin = await fastify.listen({ host: '127.0.0.1', port: 0 });
  return { endpointUrl: `${origin}/mcp`, close: () => fastify.close() };
}
