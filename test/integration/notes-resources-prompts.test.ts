// The notes example's resource template and prompt through the SDK client over real stdio, in both eras:
// listing, reading, unknown URIs, prompt arguments and completion.
import { ProtocolError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTES_SERVER } from './helpers/built-servers.js';
import { type ConnectedServer, connectServer } from './helpers/connected-server.js';
import { ERAS } from './helpers/eras.js';
import { structured } from './helpers/tool-results.js';

describe.each(ERAS)('notes resources and prompts ($era era)', (eraCase) => {
  let server: ConnectedServer;
  let note: { id: string; title: string };

  beforeAll(async () => {
    server = await connectServer(NOTES_SERVER, eraCase);
    const created = await server.client.callTool({
      name: 'notes_create_note',
      arguments: { title: 'Bisque schedule', body: 'Slow ramp to 600 °C.', tags: ['firing'] },
    });
    note = structured(created) as { id: string; title: string };
  });
  afterAll(() => server?.close());

  it('lists each stored note as a concrete resource of the template', async () => {
    const { resources } = await server.client.listResources();
    expect(resources).toEqual([{ uri: `notes://${note.id}`, name: 'Bisque schedule', mimeType: 'text/markdown' }]);
  });

  it('lists the notes://{id} template', async () => {
    const { resourceTemplates } = await server.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: 'notes://{id}',
        name: 'note',
        title: 'Note',
        description: 'A note as markdown: title, tags and body.',
        mimeType: 'text/markdown',
      },
    ]);
  });

  it('reads a note as markdown text', async () => {
    const uri = `notes://${note.id}`;
    const { contents } = await server.client.readResource({ uri });
    expect(contents).toEqual([
      { uri, mimeType: 'text/markdown', text: '# Bisque schedule\n\nTags: firing\n\nSlow ramp to 600 °C.' },
    ]);
  });

  it('rejects a URI no resource matches with -32602', async () => {
    const read = server.client.readResource({ uri: 'glazes://celadon' });
    await expect(read).rejects.toBeInstanceOf(ProtocolError);
    await expect(read).rejects.toMatchObject({
      code: -32602,
      data: {
        uri: 'glazes://celadon',
        reason: 'unknown_resource',
        recovery: { hint: expect.stringContaining('resources/list') },
        requestId: expect.any(String),
      },
    });
  });

  it('fails a template read of a missing note with the resource contract', async () => {
    await expect(server.client.readResource({ uri: 'notes://missing' })).rejects.toMatchObject({
      code: -32001,
      message: 'No note has this id.',
      data: {
        reason: 'no_match',
        recovery: { hint: 'List resources to find the URI of an existing note.' },
        requestId: expect.any(String),
      },
    });
  });

  it('lists the prompt with its required and optional arguments', async () => {
    const { prompts } = await server.client.listPrompts();
    expect(prompts).toEqual([
      {
        name: 'notes_summarize',
        title: 'Summarise notes',
        description: 'Summarise every note filed under a tag.',
        arguments: [
          { name: 'tag', description: 'Tag whose notes to summarise', required: true },
          { name: 'style', description: 'Summary style: bullets or paragraph', required: false },
        ],
      },
    ]);
  });

  it('gets the prompt with the notes of the tag', async () => {
    const result = await server.client.getPrompt({
      name: 'notes_summarize',
      arguments: { tag: 'firing', style: 'paragraph' },
    });
    expect(result.description).toBe('Summarise every note filed under a tag.');
    expect(result.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'text',
          text: 'Summarise these notes tagged "firing" as paragraph:\n\n- Bisque schedule: Slow ramp to 600 °C.',
        },
      },
    ]);
  });

  it('rejects a prompt call missing its required argument with -32602', async () => {
    await expect(server.client.getPrompt({ name: 'notes_summarize', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('tag'),
      data: { reason: 'invalid_arguments', recovery: { hint: expect.any(String) }, requestId: expect.any(String) },
    });
  });

  it('completes the style argument', async () => {
    const complete = (value: string) =>
      server.client.complete({
        ref: { type: 'ref/prompt', name: 'notes_summarize' },
        argument: { name: 'style', value },
      });
    expect((await complete('b')).completion).toEqual({ values: ['bullets'], total: 1, hasMore: false });
    expect((await complete('')).completion.values).toEqual(['bullets', 'paragraph']);
    expect((await complete('z')).completion.values).toEqual([]);
  });
});
