// The runtime loader's decisions: which build a process runs, which folder it trusts with code caches, and how a cache
// is named and written under the V8 flags its chunk compiled under. Real processes loading real chunks from the cache
// are in test/integration/code-cache.test.ts.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFolder, chooseFormat, flagsTag } from '../../src/loading/runtime-loader.js';
import { recordV8Flag, V8_FLAGS_SET, type V8FlagChange, v8FlagsSet } from '../../src/loading/v8-flags.js';

const scratch = mkdtempSync(join(tmpdir(), 'kiln-loader-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('chooseFormat', () => {
  const capable = { requireModule: true, sourceMaps: false, mainRealm: true };

  it('runs the CommonJS build with the code cache where Node can require() the ES modules it imports', () => {
    expect(chooseFormat({}, capable)).toBe('cjs');
    expect(chooseFormat({ MCP_CODE_CACHE: 'on' }, capable)).toBe('cjs');
  });

  it('runs the ES module build when told to, without require() of ES modules, or with source maps on', () => {
    expect(chooseFormat({ MCP_CODE_CACHE: 'off' }, capable)).toBe('esm');
    expect(chooseFormat({}, { ...capable, requireModule: false })).toBe('esm');
    expect(chooseFormat({}, { ...capable, sourceMaps: true })).toBe('esm');
  });

  it('runs the ES module build where mcp-kiln is imported inside a vm context', () => {
    expect(chooseFormat({}, { ...capable, mainRealm: false })).toBe('esm');
  });

  it('refuses any other setting with the values it accepts', () => {
    expect(() => chooseFormat({ MCP_CODE_CACHE: 'no' }, capable)).toThrow(
      'MCP_CODE_CACHE must be one of on, off (got "no").',
    );
  });
});

describe('cacheFolder', () => {
  it('creates the folder MCP_CODE_CACHE_DIR names, writable by this user only', () => {
    const folder = join(scratch, 'fresh', 'nested');
    expect(cacheFolder({ MCP_CODE_CACHE_DIR: folder })).toBe(folder);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });

  it('defaults to a folder of this user under the temporary folder', () => {
    const folder = cacheFolder({});
    expect(folder).toBe(join(tmpdir(), `mcp-kiln-code-cache-${process.getuid!()}`));
  });

  it('refuses a folder others may write to, a symbolic link and a file', () => {
    const open = join(scratch, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(cacheFolder({ MCP_CODE_CACHE_DIR: open })).toBeUndefined();

    const target = join(scratch, 'target');
    mkdirSync(target, { mode: 0o700 });
    const link = join(scratch, 'link');
    symlinkSync(target, link);
    expect(cacheFolder({ MCP_CODE_CACHE_DIR: link })).toBeUndefined();

    const file = join(scratch, 'file');
    writeFileSync(file, '');
    expect(cacheFolder({ MCP_CODE_CACHE_DIR: file })).toBeUndefined();
  });

  it('leaves ownership and mode unchecked where there are no POSIX users (Windows)', () => {
    const open = join(scratch, 'open-windows');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(cacheFolder({ MCP_CODE_CACHE_DIR: open }, { uid: undefined })).toBe(open);
    const unnamed = join(tmpdir(), 'mcp-kiln-code-cache');
    expect(cacheFolder({}, { uid: undefined })).toBe(unnamed);
    // Only this test makes that folder here (with POSIX users the name ends in the uid).
    rmSync(unnamed, { recursive: true, force: true });
  });

  it('refuses a folder another user owns', () => {
    const mine = join(scratch, 'mine');
    mkdirSync(mine, { mode: 0o700 });
    expect(cacheFolder({ MCP_CODE_CACHE_DIR: mine }, { uid: process.getuid!() + 1 })).toBeUndefined();
  });

  it('gives up quietly where it cannot create the folder', () => {
    const file = join(scratch, 'not-a-folder');
    writeFileSync(file, '');
    expect(cacheFolder({ MCP_CODE_CACHE_DIR: join(file, 'cache') })).toBeUndefined();
  });
});

describe('cache names under V8 flags', () => {
  it('names each list of flags apart, the same way every time', () => {
    const tags = [[], ['--no-allocation-site-pretenuring'], ['--import=/x.mjs'], ['--import=/y.mjs']].map(flagsTag);
    expect(new Set(tags).size).toBe(tags.length);
    expect(flagsTag(['--no-allocation-site-pretenuring'])).toBe(tags[1]);
    expect(tags.every((tag) => /^[0-9a-z]+$/.test(tag))).toBe(true);
  });

  it('records the flags the runtime sets, in order, where every copy of the loader finds them', () => {
    const global = globalThis as { [V8_FLAGS_SET]?: V8FlagChange[] };
    const before = global[V8_FLAGS_SET];
    try {
      delete global[V8_FLAGS_SET];
      expect(v8FlagsSet()).toEqual([]);
      recordV8Flag('--no-allocation-site-pretenuring', '--allocation-site-pretenuring');
      recordV8Flag('--semi-space-growth-factor=1', '--semi-space-growth-factor=2');
      expect(v8FlagsSet()).toEqual([
        { flag: '--no-allocation-site-pretenuring', undo: '--allocation-site-pretenuring' },
        { flag: '--semi-space-growth-factor=1', undo: '--semi-space-growth-factor=2' },
      ]);
      expect(global[Symbol.for('mcp-kiln.v8-flags-set') as typeof V8_FLAGS_SET]).toEqual(v8FlagsSet());
    } finally {
      if (before) global[V8_FLAGS_SET] = before;
      else delete global[V8_FLAGS_SET];
    }
  });
});
