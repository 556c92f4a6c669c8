// Stored values may hold anything a handler keeps, so the filesystem provider creates its files 0600 and its
// directories 0700. The umask can only take bits away, so the checks are "nothing for group or others, nothing
// beyond read and write (files) or read, write and search (directories) for the owner".
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FilesystemStorageProvider } from '../../src/storage/index.js';
import { freshTempDir, manualClock } from './storage-test-helpers.js';

/** Every directory and file under `dir` (not `dir` itself), as absolute paths. */
async function everythingUnder(dir: string): Promise<{ dirs: string[]; files: string[] }> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = (wanted: (entry: (typeof entries)[number]) => boolean) =>
    entries.filter(wanted).map((entry) => join(entry.parentPath, entry.name));
  return { dirs: paths((entry) => entry.isDirectory()), files: paths((entry) => entry.isFile()) };
}

async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

describe('FilesystemStorageProvider file modes', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await freshTempDir();
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the root, tenant, temp and key-segment directories 0700 and entry files 0600', async () => {
    const root = join(dir, 'not', 'yet');
    const clock = manualClock();
    const provider = new FilesystemStorageProvider({ root, now: clock.now, sweepIntervalMs: 0 });
    await provider.set('t', 'plain', '1');
    await provider.set('t', `long/${'x'.repeat(500)}`, '2', { ttlSeconds: 30 });
    await provider.setMany('other', new Map([['k', '3']]));
    await provider.set('t', 'plain', '4');

    const { dirs, files } = await everythingUnder(root);
    expect(dirs.length).toBeGreaterThanOrEqual(5);
    expect(files).toHaveLength(3);
    for (const path of [join(dir, 'not'), root, ...dirs]) {
      const mode = await modeOf(path);
      expect({ path, group: mode & 0o077, beyond: mode & ~0o700 }).toEqual({ path, group: 0, beyond: 0 });
    }
    for (const path of files) {
      const mode = await modeOf(path);
      expect({ path, group: mode & 0o077, beyond: mode & ~0o600 }).toEqual({ path, group: 0, beyond: 0 });
    }
    await provider.close();
  });

  it('keeps an entry private when a purge puts it back', async () => {
    const clock = manualClock();
    const provider = new FilesystemStorageProvider({ root: dir, now: clock.now, sweepIntervalMs: 0 });
    await provider.set('t', 'k', '1', { ttlSeconds: 10 });
    // A clock that reads "expired" once and "live" afterwards makes the purge claim the file and restore it.
    let reads = 0;
    const flicker = new FilesystemStorageProvider({
      root: dir,
      now: () => clock.now() + (reads++ === 0 ? 60_000 : 0),
      sweepIntervalMs: 0,
    });
    expect(await flicker.get('t', 'k')).toBeNull();
    const { files } = await everythingUnder(dir);
    expect(files).toHaveLength(1);
    expect((await modeOf(files[0] ?? '')) & 0o077).toBe(0);
    await Promise.all([provider.close(), flicker.close()]);
  });
});
