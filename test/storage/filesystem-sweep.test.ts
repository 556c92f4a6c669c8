// The filesystem provider's sweep of expired files nobody reads again: bounded work per run with resumption, live
// and corrupt files left in place, the periodic timer (fake timers, injected clock) and its end on close().
import { rm, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { entryPath, tenantDirectory } from '../../src/storage/filesystem-layout.js';
import { FilesystemStorageProvider } from '../../src/storage/index.js';
import { filesUnder, freshTempDir, type ManualClock, manualClock } from './storage-test-helpers.js';

describe('FilesystemStorageProvider sweep', () => {
  let root: string;
  let clock: ManualClock;

  beforeEach(async () => {
    root = await freshTempDir();
    clock = manualClock();
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads at most maxFilesPerSweep files per run and resumes where the last run stopped', async () => {
    const provider = new FilesystemStorageProvider({ root, now: clock.now, maxFilesPerSweep: 3, sweepIntervalMs: 0 });
    for (let n = 0; n < 5; n++) await provider.set('a', `gone/${n}`, '1', { ttlSeconds: 10 });
    await provider.set('a', 'live', '1');
    for (let n = 0; n < 2; n++) await provider.set('b', `gone/${n}`, '1', { ttlSeconds: 10 });
    clock.advanceSeconds(10);

    // Tenant a holds six files and tenant b two: the first run stops three files into a, the second finishes a and
    // spends its budget, the third takes b, and the fourth starts over and finds nothing left to remove.
    const removed: number[] = [];
    for (let run = 0; run < 4; run++) removed.push(await provider.sweepExpired());
    expect(removed).toEqual([3, 2, 2, 0]);
    expect(await filesUnder(root)).toHaveLength(1);
    expect(await provider.get('a', 'live')).toBe('1');
    await provider.close();
  });

  it('leaves a corrupt file in place for a person to look at', async () => {
    const provider = new FilesystemStorageProvider({ root, now: clock.now, sweepIntervalMs: 0 });
    await provider.set('t', 'broken', '1', { ttlSeconds: 1 });
    await writeFile(entryPath(tenantDirectory(root, 't'), 'broken'), 'garbage');
    clock.advanceSeconds(5);
    expect(await provider.sweepExpired()).toBe(0);
    expect(await filesUnder(root)).toHaveLength(1);
    await provider.close();
  });

  it('resolves 0 when the root was never created', async () => {
    const provider = new FilesystemStorageProvider({ root: `${root}/absent`, sweepIntervalMs: 0 });
    expect(await provider.sweepExpired()).toBe(0);
    await provider.close();
  });

  describe('on a timer', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    });

    afterEach(() => {
      vi.useRealTimers();
    });

    it('removes expired files written by an earlier instance, and stops on close', async () => {
      const earlier = new FilesystemStorageProvider({ root, now: clock.now, sweepIntervalMs: 0 });
      for (let round = 0; round < 4; round++) await earlier.set('t', `consent/${round}`, '{}', { ttlSeconds: 600 });
      await earlier.close();
      clock.advanceSeconds(600);

      const provider = new FilesystemStorageProvider({ root, now: clock.now, sweepIntervalMs: 2000 });
      const sweep = vi.spyOn(provider, 'sweepExpired');
      await vi.advanceTimersByTimeAsync(2000);
      expect(sweep).toHaveBeenCalledTimes(1);
      expect(await sweep.mock.results[0]?.value).toBe(4);
      expect(await filesUnder(root)).toEqual([]);

      await provider.close();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(sweep).toHaveBeenCalledTimes(1);
    });
  });
});
