// The SDK baseline the benchmarks compare Kiln with: the notes example written against the bare SDK (McpServer over a
// Map). It loads the SDK and zod only, so the cold-start baseline (cold-sdk-server.ts) can use it too.
import { McpServer, ProtocolError, ProtocolErrorCode, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { type Note, NoteSchema } from '../examples/notes/note.js';

/**
 * The SDK baseline's server factory: the notes example's create and get tools (and, unless left out, its resource and
 * prompt) on a bare McpServer over a Map. The handler
 * calls it per request, so each request also pays McpServer's zod-to-JSON-Schema conversion (Kiln converts at boot).
 */
export function sdkNotesServer(
  notes: Map<string, Note>,
  format: (note: Note) => string,
  { readAndPrompt = true }: { readonly readAndPrompt?: boolean } = {},
): () => McpServer {
  const CreateInput = z.object({
    title: z.string().min(1).max(200).describe('Title of the note'),
    body: z.string().describe('Body text (markdown allowed)'),
    tags: z.array(z.string().describe('A tag')).default([]).describe('Tags to file the note under'),
  });
  const GetInput = z.object({ id: z.string().describe('Note id') });
  const SummarizeArgs = z.object({
    tag: z.string().describe('Tag whose notes to summarise'),
    style: z.enum(['bullets', 'paragraph']).optional().describe('Summary style: bullets or paragraph'),
  });

  return () => {
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
      {
        title: 'Get note',
        description: 'Fetch one note by its id, with title, body, tags and creation time.',
        annotations: { readOnlyHint: true },
        inputSchema: GetInput,
        outputSchema: NoteSchema,
      },
      async ({ id }) => {
        const note = notes.get(id);
        if (!note) return { isError: true, content: [{ type: 'text', text: `No note has id ${id}.` }] };
        return { structuredContent: note, content: [{ type: 'text', text: format(note) }] };
      },
    );
    if (!readAndPrompt) return server;
    // The notes example's notes://{id} resource and notes_summarize prompt, for the resources/read and prompts/get rows.
    server.registerResource(
      'note',
      new ResourceTemplate('notes://{id}', { list: undefined }),
      { title: 'Note', description: 'A note as markdown: title, tags and body.', mimeType: 'text/markdown' },
      async (uri, { id }) => {
        const note = notes.get(String(id));
        if (!note) throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `No note has id ${id}.`);
        const text = `# ${note.title}\n\nTags: ${note.tags.join(', ') || 'none'}\n\n${note.body}`;
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
      },
    );
    server.registerPrompt(
      'notes_summarize',
      { title: 'Summarise notes', description: 'Summarise every note filed under a tag.', argsSchema: SummarizeArgs },
      async ({ tag, style }) => {
        const listing = [...notes.values()].filter((n) => n.tags.includes(tag)).map((n) => `- ${n.title}: ${n.body}`);
        const text = `Summarise these notes tagged "${tag}" as ${style ?? 'bullets'}:\n\n${listing.join('\n') || '(no notes carry this tag)'}`;
        return { messages: [{ role: 'user', content: { type: 'text', text } }] };
      },
    );
    return server;
  };
}
