// The consent race split across two app instances on one Redis: ten retries carrying one consent record, five on
// each instance at the same moment. The record is redeemed with an atomic take in Redis, and the note itself is a
// ctx.state entry deleted by take, so exactly one retry (on either instance) deletes it and the other nine are asked
// again with fresh records.
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Note } from '../../examples/notes/note.js';
import { NotesModule } from '../../examples/notes/notes.module.js';
import { NotesService } from '../../examples/notes/notes.service.js';
import type { KilnApp } from '../../src/app/kiln-app.js';
import { bootApp, closeBootedApps, QUIET_ENV } from '../di/boot-app.js';
import { ACCEPT, expectPrompt, toolRound } from '../pipeline/consent-rounds.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';

const RETRIES = 10;

let redis: RedisSingleServer;

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await closeBootedApps();
  await redis?.stop();
});

const bootInstance = () =>
  bootApp(NotesModule, {
    env: { ...QUIET_ENV, STORAGE_PROVIDER_TYPE: 'redis', REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'consent-race' },
  });

describe('concurrent retries of one consent across two instances', () => {
  it('delete the note exactly once; the other nine get a fresh prompt', async () => {
    const instances: KilnApp[] = [await bootInstance(), await bootInstance()];
    const [first, second] = instances as [KilnApp, KilnApp];
    const created = await first.callTool('notes_create_note', { title: 'Shared draft', body: 'Scrap this' });
    const { id } = created.structuredContent as Note;
    const deletes = instances.map((app) => vi.spyOn(app.runtime.container.resolve(NotesService), 'delete'));

    // Prompted on one instance, retried on both.
    const { requestState } = await expectPrompt(toolRound(second, 'notes_delete_note', { id }));
    const results = await Promise.all(
      Array.from({ length: RETRIES }, (_, n) =>
        toolRound(
          instances[n % 2] as KilnApp,
          'notes_delete_note',
          { id },
          {
            state: requestState,
            answer: ACCEPT,
            requestId: `RETRY-${n}`,
          },
        ),
      ),
    );

    const completed = results.filter((result) => !isInputRequiredResult(result));
    expect(completed).toEqual([expect.objectContaining({ structuredContent: { deleted: id } })]);
    const deleteCalls = deletes.flatMap((spy) => spy.mock.results);
    expect(deleteCalls).toHaveLength(1);
    expect(await deleteCalls[0]?.value).toBe(true);
    for (const app of instances) {
      expect((await app.callTool('notes_get_note', { id })).structuredContent).toMatchObject({
        error: { data: { reason: 'no_match' } },
      });
    }

    const prompts = await Promise.all(
      results.filter(isInputRequiredResult).map((result) => expectPrompt(Promise.resolve(result))),
    );
    expect(prompts).toHaveLength(RETRIES - 1);
    const freshStates = new Set(prompts.map((prompt) => prompt.requestState));
    expect(freshStates.size).toBe(RETRIES - 1);
    expect(freshStates.has(requestState)).toBe(false);
    // Both instances see the same nine fresh records, in Redis.
    for (const app of instances) {
      const consent = await app.runtime.services.stateFor('default').list('consent/');
      expect(consent.items.map((item) => item.key.slice('consent/'.length)).sort()).toEqual([...freshStates].sort());
    }
  });
});
