// The cold-start baseline: a bare SDK server as its docs write one (McpServer with the notes example's create and get
// tools, served by the SDK's own stdio entry or createMcpHandler on node:http), nothing else loaded.
// `node dist/bench/cold-sdk-server.js stdio|http`; over HTTP it prints "MCP endpoint: <url>" as Kiln does.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const NoteSchema = z.object({
  id: z.string().describe('Note id'),
  title: z.string().describe('Title'),
  body: z.string().describe('Body text'),
  tags: z.array(z.string().describe('A tag')).describe('Tags'),
  createdAt: z.string().describe('ISO 8601 creation time'),
});
type Note = z.infer<typeof NoteSchema>;
const CreateInput = z.object({
  title: z.string().min(1).max(200).describe('Title of the note'),
  body: z.string().describe('Body text (markdown allowed)'),
  tags: z.array(z.string().describe('A tag')).default([]).describe('Tags to file the note under'),
});
const GetInput = z.object({ id: z.string().describe('Note id') });

const notes = new Map<string, Note>();
const format = (note: Note) => `# ${note.title}\n\n**id:** ${note.id}\n\n${note.body}`;

function notesServer(): McpServer {
  const server = new McpServer({ name: 'sdk-notes', version: '0.1.0' });
  server.registerTool(
    'notes_create_note',
    { description: 'Create a note.', inputSchema: CreateInput, outputSchema: NoteSchema },
    async (input) => {
      const note: Note = { id: crypto.randomUUID(), ...input, createdAt: new Date().toISOString() };
      notes.set(note.id, note);
      return { structuredContent: note, content: [{ type: 'text', text: format(note) }] };
    },
  );
  server.registerTool(
    'notes_get_note',
    { description: 'Fetch one note by its id.', inputSchema: GetInput, outputSchema: NoteSchema },
    async ({ id }) => {
      const note = notes.get(id);
      if (!note) return { isError: true, content: [{ type: 'text', text: `No note has id ${id}.` }] };
      return { structuredContent: note, content: [{ type: 'text', text: format(note) }] };
    },
  );
  return server;
}

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
