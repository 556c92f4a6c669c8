// Property: each storage provider behaves as the Map model in storage-model.ts for any sequence of calls, TTLs
// included, on a manual clock. Complements the example-based compliance suite in test/storage.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { providerFactories } from '../storage/storage-test-helpers.js';
import { fuzzParameters, fuzzTimeout } from './fuzz-settings.js';
import { type StorageModel, type StorageReal, storageCommands } from './storage-model.js';

const RUNS = 100;
const START = 1_700_000_000_000;

describe.each(providerFactories)('%s storage provider against the model', (_name, makeProvider) => {
  it(
    'answers every call as the model does: values, removals, counts, list pages and expiry',
    async () => {
      await fc.assert(
        fc.asyncProperty(storageCommands, async (commands) => {
          const clock = { now: START };
          const subject = await makeProvider({ now: () => clock.now });
          try {
            await fc.asyncModelRun(
              () => ({
                model: { now: START, tenants: new Map() } satisfies StorageModel,
                real: { provider: subject.provider, clock } satisfies StorageReal,
              }),
              commands,
            );
          } finally {
            await subject.cleanup();
          }
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, 300),
  );
});
