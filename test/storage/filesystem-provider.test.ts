// Runs the compliance suite against the filesystem provider, plus what only a shared directory can show: atomic
// `take` across two provider instances, the on-disk layout, and purging of expired files.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { FilesystemStorageProvider } from '../../src/storage/index.js';
import { runStorageProviderCompliance } from './provider-compliance.js';
import {
  expectMcpError,
  filesUnder,
  freshTempDir,
  makeFilesystemProvider,
  manualClock,
} from './storage-test-helpers.js';

runStorageProviderCompliance('FilesystemStorageProvider', makeFilesystemProvider, {
  quota: true,
  sweep: true,
  corruptEntries: true,
});

describe('FilesystemStorageProvider on a shared root', () => {
  let root: string;

  beforeEach(async () => {
    root = await freshTempDir();
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('lets a second instance read what the first wrote', async () => {
    const first = new FilesystemStorageProvider({ root });
    const second = new FilesystemStorageProvider({ root });
    await first.set('t', 'k', '"from first"');
    expect(await second.get('t', 'k')).toBe('"from first"');
    expect((await second.list('t', '', { limit: 10 })).items).toEqual([{ key: 'k', value: '"from first"' }]);
  });

  it('gives the value to exactly one of 20 takes split across two instances, round after round', async () => {
    const instances = [new FilesystemStorageProvider({ root }), new FilesystemStorageProvider({ root })];
    for (let round = 0; round < 10; round++) {
      await instances[round % 2]?.set('t', 'ticket', `"round ${round}"`);
      const takes = Array.from({ length: 20 }, (_, index) => instances[index % 2]!.take('t', 'ticket'));
      const results = await Promise.all(takes);
      expect(results.filter((value) => value !== null)).toEqual([`"round ${round}"`]);
    }
  });

  it('reports true to exactly one of concurrent deletes split across two instances', async () => {
    const instances = [new FilesystemStorageProvider({ root }), new FilesystemStorageProvider({ root })];
    await instances[0]!.set('t', 'k', '1');
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => instances[index % 2]!.delete('t', 'k')));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('never lets a reader on another instance see a half-written value', async () => {
    const writer = new FilesystemStorageProvider({ root });
    const reader = new FilesystemStorageProvider({ root });
    const pad = 'x'.repeat(20_000);
    await writer.set('t', 'hot', JSON.stringify({ n: 0, pad }));
    let writing = true;
    const writes = (async () => {
      try {
        for (let n = 1; n <= 150; n++) await writer.set('t', 'hot', JSON.stringify({ n, pad }));
      } finally {
        writing = false;
      }
    })();
    const readLoop = async () => {
      const seen: unknown[] = [];
      while (writing) seen.push(JSON.parse((await reader.get('t', 'hot')) ?? 'null'));
      return seen;
    };
    const [, ...loops] = await Promise.all([writes, readLoop(), readLoop(), readLoop()]);
    const seen = loops.flat();
    expect(seen.length).toBeGreaterThan(0);
    for (const value of seen) expect(value).toMatchObject({ pad });
  });
});

describe('FilesystemStorageProvider on disk', () => {
  let root: string;

  beforeEach(async () => {
    root = await freshTempDir();
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates the root on first write and keeps every file inside it', async () => {
    const nested = join(root, 'not', 'yet');
    const provider = new FilesystemStorageProvider({ root: nested });
    await provider.set('../../escape', '../../../etc/passwd', '"x"');
    expect(await provider.get('../../escape', '../../../etc/passwd')).toBe('"x"');
    const files = await filesUnder(root);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^not\/yet\/t_[0-9a-f]+\/[0-9a-f]+\.json$/);
    expect(files[0]).not.toContain('..');
  });

  it('stores one JSON file per key holding { v, exp }', async () => {
    const clock = manualClock();
    const provider = new FilesystemStorageProvider({ root, now: clock.now });
    await provider.set('t', 'with/ttl', '{"a":1}', { ttlSeconds: 30 });
    await provider.set('t', 'plain', '2');
    const files = await filesUnder(root);
    expect(files).toHaveLength(2);
    const records = await Promise.all(files.map(async (file) => JSON.parse(await readFile(join(root, file), 'utf8'))));
    expect(records).toContainEqual({ v: '{"a":1}', exp: clock.now() + 30_000 });
    expect(records).toContainEqual({ v: '2' });
  });

  it('leaves no temp files behind after writes, takes and deletes', async () => {
    const provider = new FilesystemStorageProvider({ root });
    await provider.set('t', 'a', '1');
    await provider.set('t', 'b', '2');
    await Promise.all([provider.take('t', 'a'), provider.take('t', 'a'), provider.delete('t', 'b')]);
    expect(await filesUnder(root)).toEqual([]);
  });

  it('removes the file of an expired entry when it is read', async () => {
    const clock = manualClock();
    const provider = new FilesystemStorageProvider({ root, now: clock.now });
    await provider.set('t', 'short', '1', { ttlSeconds: 1 });
    clock.advanceSeconds(1);
    expect(await filesUnder(root)).toHaveLength(1);
    expect(await provider.get('t', 'short')).toBeNull();
    expect(await filesUnder(root)).toEqual([]);
  });

  it('puts back an entry that turns out live when the purge claims it', async () => {
    const clock = manualClock();
    const provider = new FilesystemStorageProvider({ root, now: clock.now });
    await provider.set('t', 'k', '1', { ttlSeconds: 10 });
    // A clock that reads "expired" once and "live" afterwards stands in for a fresh write landing mid-purge.
    let reads = 0;
    const flicker = new FilesystemStorageProvider({ root, now: () => clock.now() + (reads++ === 0 ? 60_000 : 0) });
    expect(await flicker.get('t', 'k')).toBeNull();
    expect(await provider.get('t', 'k')).toBe('1');
  });

  it('ignores files in a tenant directory that are not entries', async () => {
    const provider = new FilesystemStorageProvider({ root });
    await provider.set('t', 'real', '1');
    const [entryFile] = await filesUnder(root);
    const tenantDir = join(root, (entryFile ?? '').split('/')[0] ?? '');
    await writeFile(join(tenantDir, 'README'), 'not an entry');
    await writeFile(join(tenantDir, 'zz.json'), '{"v":"x"}');
    await writeFile(join(tenantDir, 'abc.json'), '{"v":"odd hex"}');
    expect((await provider.list('t', '', { limit: 10 })).items).toEqual([{ key: 'real', value: '1' }]);
  });

  it('reports a corrupt entry file as a StorageError', async () => {
    const provider = new FilesystemStorageProvider({ root });
    await provider.set('t', 'k', '1');
    const [entryFile] = await filesUnder(root);
    await writeFile(join(root, entryFile ?? ''), '{ not json');
    const error = await expectMcpError(provider.get('t', 'k'), JsonRpcErrorCode.StorageError, /"k".*corrupt/);
    expect(error.data).toMatchObject({ reason: 'storage_corrupt', key: 'k' });
  });
});

describe('FilesystemStorageProvider tenant directories', () => {
  it('keeps a tenant id with a lone surrogate apart from the one UTF-8 would fold it into', async () => {
    const root = await mkdtemp(join(tmpdir(), 'kiln-fs-tenant-'));
    const provider = new FilesystemStorageProvider({ root });
    try {
      await provider.set('acme\ufffd', 'notes/1', '"secret"');
      expect(await provider.get('acme\ud800', 'notes/1')).toBeNull();
      await provider.set('acme\ud800', 'notes/1', '"own"');
      expect(await provider.get('acme\ufffd', 'notes/1')).toBe('"secret"');
      expect(await provider.get('acme\ud800', 'notes/1')).toBe('"own"');
    } finally {
      await provider.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
