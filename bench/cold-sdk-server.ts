// The cold-start baseline: a bare SDK server as its docs write one (McpServer with the notes example's create and get
// tools, served by the SDK's own stdio entry or createMcpHandler on node:http), nothing else loaded.
// `node dist/bench/cold-sdk-server.js stdio|http`; over HTTP it prints "MCP endpoint: <url>" as Kiln does.
import type { Note } from '../examples/notes/note.js';
import { sdkNotesServer } from './sdk-notes-server.js';

const format = (note: Note) => `# ${note.title}\n\n**id:** ${note.id}\n\n${note.body}`;
const notesServer = sdkNotesServer(new Map(), format, { readAndPrompt: false });

// Each transport's modules load only when chosen, as they would in a server written for that transport alone.
if (process.argv[2] === 'http') {
  const { createServer } = await import('node:http');
  const { createMcpHandler } = await import('@modelcontextprotocol/server');
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const handle = toNodeHandler(createMcpHandler(notesServer));
  const server = createServer((req, res) => void handle(req, res));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    process.stdout.write(`MCP endpoint: http://127.0.0.1:${address.port}/mcp\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(notesServer);
}
