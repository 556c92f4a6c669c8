// Ten retries carrying one consent record at the same moment, on each storage provider: the record is redeemed with
// an atomic take, so exactly one retry deletes the note and the other nine are asked again with fresh records.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Note } from '../../examples/notes/note.js';
import { NotesModule } from '../../examples/notes/notes.module.js';
import { NotesService } from '../../examples/notes/notes.service.js';
import { bootApp, closeBootedApps, QUIET_ENV } from '../di/boot-app.js';
import { ACCEPT, expectPrompt, toolRound } from './consent-rounds.js';

const RETRIES = 10;
const tempDirs: string[] = [];

afterEach(async () => {
  await closeBootedApps();
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function storageEnv(provider: 'in-memory' | 'filesystem'): Promise<Record<string, string>> {
  if (provider === 'in-memory') return { STORAGE_PROVIDER_TYPE: 'in-memory' };
  const dir = await mkdtemp(join(tmpdir(), 'kiln-consent-'));
  tempDirs.push(dir);
  return { STORAGE_PROVIDER_TYPE: 'filesystem', STORAGE_FILESYSTEM_PATH: dir };
}

describe.each(['in-memory', 'filesystem'] as const)('concurrent retries of one consent (%s storage)', (provider) => {
  it('delete the note exactly once; the other nine get a fresh prompt', async () => {
    const app = await bootApp(NotesModule, { env: { ...QUIET_ENV, ...(await storageEnv(provider)) } });
    const created = await app.callTool('notes_create_note', { title: 'Old draft', body: 'Scrap this' });
    const { id } = created.structuredContent as Note;
    const deletes = vi.spyOn(app.runtime.container.resolve(NotesService), 'delete');

    const { requestState } = await expectPrompt(toolRound(app, 'notes_delete_note', { id }));
    const results = await Promise.all(
      Array.from({ length: RETRIES }, (_, n) =>
        toolRound(app, 'notes_delete_note', { id }, { state: requestState, answer: ACCEPT, requestId: `RETRY-${n}` }),
      ),
    );

    const completed = results.filter((result) => !isInputRequiredResult(result));
    expect(completed).toEqual([expect.objectContaining({ structuredContent: { deleted: id } })]);
    expect(deletes).toHaveBeenCalledTimes(1);
    expect(await deletes.mock.results[0]?.value).toBe(true);
    expect((await app.callTool('notes_get_note', { id })).structuredContent).toMatchObject({
      error: { data: { reason: 'no_match' } },
    });

    const prompts = await Promise.all(
      results.filter(isInputRequiredResult).map((result) => expectPrompt(Promise.resolve(result))),
    );
    expect(prompts).toHaveLength(RETRIES - 1);
    const freshStates = new Set(prompts.map((prompt) => prompt.requestState));
    expect(freshStates.size).toBe(RETRIES - 1);
    expect(freshStates.has(requestState)).toBe(false);
    const consent = await app.runtime.services.stateFor('default').list('consent/');
    expect(consent.items.map((item) => item.key.slice('consent/'.length)).sort()).toEqual([...freshStates].sort());
  });
});
