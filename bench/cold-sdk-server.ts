// The cold-start baseline: a bare SDK server as its docs write one (McpServer with the notes example's create and get
// tools, served by the SDK's own stdio entry or createMcpHandler on node:http), nothing else loaded.
// `node dist/bench/cold-sdk-server.js stdio|http|fastify`; over HTTP it prints "MCP endpoint: <url>" as Kiln does.
// `fastify` serves the same handler through the SDK's Fastify adapter (@modelcontextprotocol/fastify, Fastify from
// node_modules): not the baseline, but what a server costs to start once Fastify serves it, as Kiln's host does.
import type { Note } from '../examples/notes/note.js';
import { sdkNotesServer } from './sdk-notes-server.js';

const format = (note: Note) => `# ${note.title}\n\n**id:** ${note.id}\n\n${note.body}`;
const notesServer = sdkNotesServer(new Map(), format, { readAndPrompt: false });

// Each transport's modules load only when chosen, as they would in a server written for that transport alone.
const mode = process.argv[2];
if (mode === 'http') {
  const { createServer } = await import('node:http');
  const { createMcpHandler } = await import('@modelcontextprotocol/server');
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const handle = toNodeHandler(createMcpHandler(notesServer));
  const server = createServer((req, res) => void handle(req, res));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    announce(`http://127.0.0.1:${address.port}/mcp`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else if (mode === 'fastify') {
  const { createMcpHandler } = await import('@modelcontextprotocol/server');
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const { createMcpFastifyApp } = await import('@modelcontextprotocol/fastify');
  const handle = toNodeHandler(createMcpHandler(notesServer));
  const fastify = createMcpFastifyApp();
  fastify.all('/mcp', async (request, reply) => {
    reply.hijack();
    await handle(request.raw, reply.raw, request.body);
  });
  announce(`${await fastify.listen({ host: '127.0.0.1', port: 0 })}/mcp`);
  process.once('SIGTERM', () => void fastify.close().then(() => process.exit(0)));
} else {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(notesServer);
}

function announce(endpoint: string): void {
  process.stdout.write(`MCP endpoint: ${endpoint}\n`);
}
