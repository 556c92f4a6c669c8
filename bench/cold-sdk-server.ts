// The cold-start baselines: a bare SDK server as its docs write one (McpServer with the notes example's create and get
// tools, served by the SDK's own stdio entry or createMcpHandler on node:http), nothing else loaded.
// `node dist/bench/cold-sdk-server.js stdio|http|fastify`; over HTTP it prints "MCP endpoint: <url>" as Kiln does.
// `fastify` serves the same handler through the SDK's Fastify adapter (@modelcontextprotocol/fastify, Fastify from
// node_modules): the HTTP baseline, since Kiln's host serves through Fastify too; `http` shows what Fastify costs.
import type { Note } from '../examples/notes/note.js';
import { sdkNotesServer } from './sdk-notes-server.js';

const format = (note: Note) => `# ${note.title}\n\n**id:** ${note.id}\n\n${note.body}`;
const notesServer = sdkNotesServer(new Map(), format, { readAndPrompt: false });

// Each transport's modules load only when chosen, as they would in a server written for that transport alone.
const mode = process.argv[2];
if (mode === 'http' || mode === 'fastify') {
  const { endpointUrl, close } =
    mode === 'http'
      ? await (await import('./sdk-on-node.js')).serveSdkOnNode(notesServer)
      : await (await import('./sdk-on-fastify.js')).serveSdkOnFastify(notesServer);
  process.stdout.write(`MCP endpoint: ${endpointUrl}\n`);
  process.once('SIGTERM', () => void close().then(() => process.exit(0)));
} else {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(notesServer);
}
