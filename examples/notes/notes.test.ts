// The notes example tested the way a Kiln user tests their server: the real NotesModule compiled by
// createTestingModule, with NotesService replaced by a fake where a test needs control over the data.
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { Note } from './note.js';
import { NotesModule } from './notes.module.js';
import { NotesService } from './notes.service.js';
import { NoteNotFound } from './tools/get-note.tool.js';

const apps: TestingApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A NotesService answering from a fixed list; writes are not part of these tests. */
function fakeNotes(notes: readonly Note[]): NotesService {
  return {
    create: async () => {
      throw new Error('The fake NotesService does not store notes.');
    },
    delete: async () => {
      throw new Error('The fake NotesService does not delete notes.');
    },
    find: async (_ctx, id) => notes.find((note) => note.id === id) ?? null,
    all: async () => [...notes],
    search: async () => [...notes],
  };
}

async function appWith(notes: readonly Note[]): Promise<TestingApp> {
  const app = await createTestingModule({ imports: [NotesModule] })
    .overrideProvider(NotesService)
    .useValue(fakeNotes(notes))
    .compile();
  apps.push(app);
  return app;
}

const note = (n: number): Note => ({
  id: `n${n}`,
  title: `Standup ${n}`,
  body: `Meeting notes ${n}`,
  tags: ['work'],
  createdAt: `2026-01-${String(n).padStart(2, '0')}T09:00:00.000Z`,
});

describe('notes_get_note', () => {
  it('answers an unknown id with the not-found envelope and the contract recovery hint', async () => {
    const app = await appWith([note(1)]);
    // `note_id` is the declared alias of `id`, as an agent might send it.
    const result = await app.callTool('notes_get_note', { note_id: 'missing' });

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: {
        code: JsonRpcErrorCode.NotFound,
        message: 'No note has id missing.',
        data: {
          reason: 'no_match',
          recovery: { hint: NoteNotFound[0].recovery },
          requestId: expect.any(String),
        },
      },
    });
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringContaining(`**Recovery:** ${NoteNotFound[0].recovery}`) },
    ]);
  });

  it('returns a stored note from the service it was given', async () => {
    const app = await appWith([note(1)]);
    const result = await app.callTool('notes_get_note', { id: 'n1' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(note(1));
  });
});

describe('notes_search_notes', () => {
  it('discloses a capped list in structuredContent and in a content[] trailer', async () => {
    const app = await appWith(Array.from({ length: 12 }, (_, i) => note(i + 1)));
    const result = await app.callTool('notes_search_notes', { query: 'meeting', limit: 5 });
    const notice = 'Showing 5 of 12 notes. Narrow the query or raise limit (max 50).';

    expect(result.structuredContent).toMatchObject({
      effectiveQuery: 'meeting',
      totalCount: 12,
      truncated: true,
      shown: 5,
      cap: 5,
      notice,
    });
    expect((result.structuredContent as { notes: Note[] }).notes.map((n) => n.id)).toEqual([
      'n1',
      'n2',
      'n3',
      'n4',
      'n5',
    ]);
    expect(result.content.at(-1)).toEqual({
      type: 'text',
      text: ['Query: meeting', '12 total', '**truncated:** true', '**shown:** 5', '**cap:** 5', `> ${notice}`].join(
        '\n',
      ),
    });
  });

  it('says nothing about truncation when every match fits', async () => {
    const app = await appWith([note(1), note(2)]);
    const result = await app.callTool('notes_search_notes', { query: 'meeting', limit: 5 });
    expect(result.structuredContent).not.toHaveProperty('truncated');
    expect(result.structuredContent).toMatchObject({ totalCount: 2 });
    expect(result.content.at(-1)).toEqual({ type: 'text', text: 'Query: meeting\n2 total' });
  });
});

describe('notes with the real service', () => {
  it('creates a note and gets it back through an SDK client', async () => {
    const app = await createTestingModule({ imports: [NotesModule] }).compile();
    apps.push(app);
    const client = await app.connectClient({ era: 'envelope' });

    const created = await client.callTool({
      name: 'notes_create_note',
      arguments: { title: 'Groceries', body: 'Eggs, flour', tags: ['home'] },
    });
    expect(created.isError).toBeFalsy();
    const { id } = created.structuredContent as Note;

    const fetched = await client.callTool({ name: 'notes_get_note', arguments: { id } });
    expect(fetched.structuredContent).toMatchObject({ id, title: 'Groceries', body: 'Eggs, flour', tags: ['home'] });
    expect(fetched.content).toEqual([{ type: 'text', text: expect.stringContaining('# Groceries') }]);
  });

  it('serves a created note as a resource and summarises its tag in the prompt', async () => {
    const app = await createTestingModule({ imports: [NotesModule] }).compile({ tenantId: 'team-a' });
    apps.push(app);
    const created = await app.callTool('notes_create_note', { title: 'Plan', body: 'Ship it', tags: ['q3'] });
    const { id } = created.structuredContent as Note;

    const resource = await app.readResource(`notes://${id}`);
    expect(resource.contents).toEqual([
      expect.objectContaining({ uri: `notes://${id}`, text: expect.stringContaining('# Plan') }),
    ]);
    const prompt = await app.getPrompt('notes_summarize', { tag: 'q3' });
    expect(JSON.stringify(prompt.messages)).toContain('Plan: Ship it');
    await expect(app.readResource(`notes://${id}`, { tenantId: 'team-b' })).rejects.toMatchObject({
      code: JsonRpcErrorCode.NotFound,
    });
  });
});

describe.each(['handshake', 'envelope'] as const)('notes_delete_note behind its consent gate (%s era)', (era) => {
  /** The real module and an SDK client that answers every confirmation prompt with `answer`. */
  async function deleteWith(answer: ElicitResult) {
    const app = await createTestingModule({ imports: [NotesModule] }).compile();
    apps.push(app);
    const client = await app.connectClient({ era, capabilities: { elicitation: { form: {} } } });
    const prompts: ElicitRequest['params'][] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      prompts.push(request.params);
      return answer;
    });
    const created = await app.callTool('notes_create_note', { title: 'Old draft', body: 'Scrap this' });
    const { id } = created.structuredContent as Note;
    const result = await client.callTool({ name: 'notes_delete_note', arguments: { id } });
    const remaining = await app.callTool('notes_get_note', { id });
    return { id, prompts, result, stillThere: remaining.isError !== true };
  }

  it('asks the user once and deletes the note on a confirmed yes', async () => {
    const { id, prompts, result, stillThere } = await deleteWith({ action: 'accept', content: { confirm: true } });
    expect(prompts).toEqual([
      expect.objectContaining({
        message: `Delete note ${id}?`,
        requestedSchema: expect.objectContaining({ required: ['confirm'] }),
      }),
    ]);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ deleted: id });
    expect(stillThere).toBe(false);
  });

  it.each([
    ['declines', { action: 'decline' }, 'The user declined notes_delete_note; nothing was done.'],
    ['cancels', { action: 'cancel' }, 'The user cancelled the confirmation of notes_delete_note; nothing was done.'],
    [
      'answers no',
      { action: 'accept', content: { confirm: false } },
      'The user did not confirm notes_delete_note; nothing was done.',
    ],
  ] as const)('keeps the note when the user %s, failing with consent_declined', async (_label, answer, message) => {
    const { prompts, result, stillThere } = await deleteWith(answer);
    expect(prompts).toHaveLength(1);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: {
        code: JsonRpcErrorCode.Forbidden,
        message,
        data: { reason: 'consent_declined', recovery: { hint: expect.stringContaining('Do not call it again') } },
      },
    });
    expect(stillThere).toBe(true);
  });
});
