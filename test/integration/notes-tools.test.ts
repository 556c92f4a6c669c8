// The notes example's tools through the SDK client over real stdio, in both eras: the listing (strict input,
// widened output, no alias keys), both client surfaces on success, and the failure envelopes.
import { ProtocolError, type Tool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTES_SERVER } from './helpers/built-servers.js';
import { type ConnectedServer, connectServer } from './helpers/connected-server.js';
import { ERAS } from './helpers/eras.js';
import {
  contentTexts,
  expectStrictInputSchema,
  expectWidenedOutputSchema,
  failureEnvelope,
  findTool,
  type JsonObject,
  matchesOutputSchema,
  structured,
} from './helpers/tool-results.js';

const NOTE_FIELDS = ['id', 'title', 'body', 'tags', 'createdAt'];

describe.each(ERAS)('notes tools ($era era)', (eraCase) => {
  let server: ConnectedServer;
  let tools: Tool[];

  const createNote = async (title: string, body: string, tags: string[]) => {
    const result = await server.client.callTool({ name: 'notes_create_note', arguments: { title, body, tags } });
    expect(result.isError).toBeFalsy();
    return structured(result) as { id: string; title: string; body: string; tags: string[]; createdAt: string };
  };

  beforeAll(async () => {
    server = await connectServer(NOTES_SERVER, eraCase);
    // Listing first also primes the client's output validator, so every later success is schema-checked by the SDK.
    tools = (await server.client.listTools()).tools;
  });
  afterAll(() => server?.close());

  it(`negotiates ${eraCase.protocolVersion}`, () => {
    expect(server.client.getProtocolEra()).toBe(eraCase.sdkEra);
    expect(server.client.getNegotiatedProtocolVersion()).toBe(eraCase.protocolVersion);
    expect(server.client.getServerVersion()).toMatchObject({ name: 'kiln-notes', version: '0.1.0' });
  });

  it('lists each tool with a strict inputSchema and the widened outputSchema', () => {
    expect(tools.map((t) => t.name).sort()).toEqual([
      'notes_create_note',
      'notes_delete_note',
      'notes_get_note',
      'notes_search_notes',
    ]);
    for (const tool of tools) expectStrictInputSchema(tool);
    expectWidenedOutputSchema(findTool(tools, 'notes_create_note'), NOTE_FIELDS);
    expectWidenedOutputSchema(findTool(tools, 'notes_get_note'), NOTE_FIELDS);
    expectWidenedOutputSchema(findTool(tools, 'notes_search_notes'), ['notes', 'effectiveQuery', 'totalCount']);
    expectWidenedOutputSchema(findTool(tools, 'notes_delete_note'), ['deleted']);
    expect(findTool(tools, 'notes_delete_note').annotations).toMatchObject({ destructiveHint: true });
    // Success fields and enrichment fields alike are optional at the root; only the anyOf branch requires them.
    const getNote = findTool(tools, 'notes_get_note').outputSchema as JsonObject;
    expect(Object.keys(getNote.properties as JsonObject)).toEqual([...NOTE_FIELDS, 'notice', 'error']);
  });

  it('advertises the canonical key and never the declared alias', () => {
    const inputSchema = findTool(tools, 'notes_get_note').inputSchema;
    expect(inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'string', description: 'Note id' } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(JSON.stringify(inputSchema)).not.toContain('note_id');
  });

  it('returns a created note on structuredContent and renders the same fields into content[]', async () => {
    const result = await server.client.callTool({
      name: 'notes_create_note',
      arguments: { title: 'Kiln firing log', body: 'Cone 6 reached at 1222 °C.', tags: ['kiln', 'glaze'] },
    });
    const note = structured(result);
    expect(note).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Kiln firing log',
      body: 'Cone 6 reached at 1222 °C.',
      tags: ['kiln', 'glaze'],
      createdAt: expect.any(String),
    });
    expect(contentTexts(result)).toEqual([
      `Created note **Kiln firing log** (id ${note.id}, ${note.createdAt}).\n\nTags: kiln, glaze\n\nCone 6 reached at 1222 °C.`,
    ]);
  });

  it('carries the search results and their enrichment on both surfaces, with a trailer', async () => {
    const first = await createNote('Parity one', 'Glaze test tile', [`parity-${eraCase.era}`]);
    const second = await createNote('Parity two', 'Second glaze tile', [`parity-${eraCase.era}`]);
    const result = await server.client.callTool({
      name: 'notes_search_notes',
      arguments: { query: 'glaze', tag: `parity-${eraCase.era}` },
    });
    const payload = structured(result);
    // Both notes may share a createdAt millisecond, so their relative order is not asserted.
    expect(payload).toEqual({
      notes: expect.arrayContaining([first, second]),
      effectiveQuery: 'glaze',
      totalCount: 2,
    });
    expect(payload.notes).toHaveLength(2);
    expect(matchesOutputSchema(findTool(tools, 'notes_search_notes'), payload)).toBe(true);

    const [rendered, trailer, ...rest] = contentTexts(result);
    expect(rest).toEqual([]);
    for (const note of [first, second]) {
      for (const value of [note.id, note.title, note.body, note.createdAt, ...note.tags]) {
        expect(rendered).toContain(value);
      }
    }
    expect(trailer).toBe('Query: glaze\n2 total');
  });

  it('discloses a capped search on both surfaces', async () => {
    const tag = `capped-${eraCase.era}`;
    for (const n of [1, 2, 3]) await createNote(`Capped ${n}`, 'Kiln shelf', [tag]);
    const result = await server.client.callTool({
      name: 'notes_search_notes',
      arguments: { query: 'Capped', tag, limit: 2 },
    });
    const notice = 'Showing 2 of 3 notes. Narrow the query or raise limit (max 50).';
    expect(structured(result)).toMatchObject({
      effectiveQuery: 'Capped',
      totalCount: 3,
      truncated: true,
      shown: 2,
      cap: 2,
      notice,
    });
    expect((structured(result).notes as unknown[]).length).toBe(2);
    expect(contentTexts(result).at(-1)).toBe(
      `Query: Capped\n3 total\n**truncated:** true\n**shown:** 2\n**cap:** 2\n> ${notice}`,
    );
  });

  it('answers invalid arguments with an isError result carrying the -32602 envelope', async () => {
    const result = await server.client.callTool({
      name: 'notes_create_note',
      arguments: { title: '', body: 'No title', colour: 'red' },
    });
    const error = failureEnvelope(result);
    expect(error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('notes_create_note'),
      data: {
        reason: 'invalid_arguments',
        recovery: { hint: expect.stringContaining('Check the tool inputSchema in tools/list') },
        requestId: expect.any(String),
      },
    });
    expect(error.message).toContain('colour');
    expect(error.data.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'title' }), expect.objectContaining({ path: '' })]),
    );
    expect(matchesOutputSchema(findTool(tools, 'notes_create_note'), result.structuredContent)).toBe(true);
  });

  it('rejects an unknown tool with a -32602 JSON-RPC error', async () => {
    const call = server.client.callTool({ name: 'notes_archive_note', arguments: { id: 'x' } });
    await expect(call).rejects.toBeInstanceOf(ProtocolError);
    await expect(call).rejects.toMatchObject({
      code: -32602,
      message: 'Unknown tool: notes_archive_note.',
      data: { reason: 'unknown_tool', recovery: { hint: expect.stringContaining('tools/list') } },
    });
  });

  it('never deletes for a client that cannot be asked to confirm: the consent gate fails closed', async () => {
    const { id } = await createNote('Keep me', 'The client declared no elicitation.', []);
    const call = server.client.callTool({ name: 'notes_delete_note', arguments: { id } });
    if (eraCase.era === 'handshake') {
      expect(failureEnvelope(await call)).toMatchObject({
        code: -32600,
        data: { reason: 'client_capability_missing', requiredCapabilities: { elicitation: { form: {} } } },
      });
    } else {
      await expect(call).rejects.toMatchObject({ code: -32021 });
    }
    const kept = await server.client.callTool({ name: 'notes_get_note', arguments: { id } });
    expect(structured(kept)).toMatchObject({ id, title: 'Keep me' });
  });

  it('reaches the handler through the declared alias and fails with the contract reason and hint', async () => {
    const result = await server.client.callTool({ name: 'notes_get_note', arguments: { note_id: 'no-such-note' } });
    const error = failureEnvelope(result);
    expect(error).toEqual({
      code: -32001,
      message: 'No note has id no-such-note.',
      data: {
        reason: 'no_match',
        recovery: { hint: 'List notes with notes_search_notes first and call again with an id from that list.' },
        requestId: expect.any(String),
      },
    });
    expect(matchesOutputSchema(findTool(tools, 'notes_get_note'), result.structuredContent)).toBe(true);
  });

  it('validates only the success or the failure branch of the widened outputSchema', async () => {
    const tool = findTool(tools, 'notes_get_note');
    const note = await createNote('Branch check', 'Body', []);
    expect(matchesOutputSchema(tool, note)).toBe(true);
    expect(matchesOutputSchema(tool, { title: 'Only a title' })).toBe(false);
    expect(matchesOutputSchema(tool, { ...note, error: { code: -32001, message: 'both' } })).toBe(true);
    expect(matchesOutputSchema(tool, {})).toBe(false);
  });
});

describe('notes tools/list across eras', () => {
  it('advertises identical tool definitions to a 2025-11-25 and a 2026-07-28 client', async () => {
    const servers = await Promise.all(ERAS.map((eraCase) => connectServer(NOTES_SERVER, eraCase)));
    try {
      const [handshake, envelope] = await Promise.all(servers.map((s) => s.client.listTools()));
      expect(envelope?.tools).toEqual(handshake?.tools);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});
