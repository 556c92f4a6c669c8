// The servers under benchmark: Kiln serving the notes example over HTTP (fast path on and off, and 2025 sessions),
// the official SDK alone with an equivalent notes tool, mounted the way the SDK documents it (createMcpHandler on
// node:http and on Fastify, and its own 2025 session wiring), and raw Fastify answering the same JSON as a ceiling.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import Fastify from 'fastify';
import { createApp } from 'mcp-kiln';
import { http, kilnFastify } from 'mcp-kiln/http';
import type { Note } from '../examples/notes/note.js';
import { NotesModule } from '../examples/notes/notes.module.js';
import { GetNoteTool } from '../examples/notes/tools/get-note.tool.js';
import { sdkNotesServer } from './sdk-notes-server.js';
import { serveSdkOnFastify } from './sdk-on-fastify.js';
import { listenOnNode, serveSdkOnNode } from './sdk-on-node.js';

export const SERVER_KINDS = [
  'kiln-fast',
  'kiln-plugin',
  'kiln-sdk',
  'kiln-stateful',
  'sdk-node',
  'sdk-fastify',
  'sdk-sessions',
  'fastify-raw',
] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

export interface BenchServer {
  readonly endpointUrl: string;
  close(): Promise<void>;
}

export function startServer(kind: ServerKind): Promise<BenchServer> {
  switch (kind) {
    case 'kiln-fast':
      return startKiln('stateless', 'on');
    case 'kiln-sdk':
      return startKiln('stateless', 'off');
    case 'kiln-plugin':
      return startKilnPlugin();
    case 'kiln-stateful':
      return startKiln('stateful', 'on');
    case 'sdk-node':
      return serveSdkOnNode(sdkNotesServer(new Map(), formatNote));
    case 'sdk-fastify':
      return serveSdkOnFastify(sdkNotesServer(new Map(), formatNote));
    case 'sdk-sessions':
      return startSdkSessions();
    case 'fastify-raw':
      return startRawFastify();
  }
}

async function startKiln(sessionMode: 'stateless' | 'stateful', fastPath: 'on' | 'off'): Promise<BenchServer> {
  const app = await createApp(NotesModule, {
    name: 'kiln-notes',
    version: '0.1.0',
    serve: false,
    env: {
      MCP_TRANSPORT_TYPE: 'http',
      MCP_HTTP_PORT: '0',
      MCP_LOG_LEVEL: 'error',
      MCP_SESSION_MODE: sessionMode,
      MCP_HTTP_FAST_PATH: fastPath,
    },
  });
  const serving = await app.serve(http());
  return {
    endpointUrl: serving.endpointUrl,
    close: async () => {
      await serving.close();
      await app.close();
    },
  };
}

/**
 * Kiln mounted by the kilnFastify plugin on an application's own Fastify (default options, a route of its own beside
 * the endpoint), the way an application embeds it.
 */
async function startKilnPlugin(): Promise<BenchServer> {
  const app = await createApp(NotesModule, {
    name: 'kiln-notes',
    version: '0.1.0',
    serve: false,
    env: { MCP_LOG_LEVEL: 'error', MCP_SESSION_MODE: 'stateless' },
  });
  const fastify = Fastify();
  fastify.get('/status', async () => ({ up: true }));
  await fastify.register(kilnFastify, { app, prefix: '/mcp' });
  await fastify.listen({ host: '127.0.0.1', port: 0 });
  const address = fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpointUrl: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await fastify.close();
      await app.close();
    },
  };
}

/**
 * The SDK's own 2025 session wiring, as its examples show it: one NodeStreamableHTTPServerTransport and McpServer per
 * session, found by Mcp-Session-Id. Requests without a session that are not an initialize (the benchmark creates its
 * note with a 2026-07-28 call) go to createMcpHandler.
 */
async function startSdkSessions(): Promise<BenchServer> {
  const factory = sdkNotesServer(new Map(), formatNote);
  const envelope = toNodeHandler(createMcpHandler(factory));
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  return listenOnNode((req, res) => {
    void (async () => {
      const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (!transport && body?.method === 'initialize') {
        const created = new NodeStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, created),
        });
        await factory().connect(created);
        transport = created;
      }
      if (transport) await transport.handleRequest(req, res, body);
      else await envelope(req, res, body);
    })();
  });
}

/** The ceiling: Fastify parsing the JSON body and answering the same result with no MCP machinery at all. */
async function startRawFastify(): Promise<BenchServer> {
  const notes = new Map<string, Note>();
  const format = (note: Note) => GetNoteTool.prototype.format.call(undefined, note);
  const fastify = Fastify();
  fastify.post('/mcp', async (request, reply) => {
    const { id, params } = request.body as { id: string; params: { name: string; arguments: Record<string, unknown> } };
    let note: Note | undefined;
    if (params.name === 'notes_create_note') {
      note = {
        id: randomUUID(),
        tags: [],
        ...params.arguments,
        createdAt: new Date().toISOString(),
      } as unknown as Note;
      notes.set(note.id, note);
    } else note = notes.get(String(params.arguments.id));
    const result = note
      ? { content: [{ type: 'text', text: format(note) }], structuredContent: note, resultType: 'complete' }
      : { content: [{ type: 'text', text: 'No such note.' }], isError: true, resultType: 'complete' };
    return reply.type('application/json').send(JSON.stringify({ result, jsonrpc: '2.0', id }));
  });
  const origin = await fastify.listen({ host: '127.0.0.1', port: 0 });
  return { endpointUrl: `${origin}/mcp`, close: () => fastify.close() };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

// Kiln's tool renders content[] with its format(); the baseline sends the same text so both bodies match in size.
const formatNote = (note: Note) => GetNoteTool.prototype.format.call(undefined, note);
