// Records what a spawned server loads: every ES module its loader fetched, every CommonJS module in its require cache
// and every module of Node's own (`node:assert`, also when a bundled package required it), written to a file when it
// exits. Pass `env(name)` to the child, then read `loaded(name)` after it ended.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';

const PRELOAD = `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
register(new URL('./hooks.mjs', import.meta.url));
const cache = createRequire(import.meta.url).cache;
// Node's own modules as node:<name> (its internal ones as node:internal/...), whoever loaded them.
const builtins = () => process.moduleLoadList.flatMap((entry) => entry.startsWith('NativeModule ') ? ['node:' + entry.slice(13)] : []);
process.on('exit', () => appendFileSync(process.env.KILN_LOADED_MODULES, [...Object.keys(cache), ...builtins()].join('\\n') + '\\n--exit--\\n'));
`;
const HOOKS = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.KILN_LOADED_MODULES, url + '\\n');
  return next(url, context);
}
`;

export interface ModuleRecorder {
  /** Environment for a child whose loads are recorded under `name`. */
  env(name: string): Record<string, string>;
  /** The URLs (ES modules), paths (CommonJS) and `node:` names the child named `name` loaded, once it has exited. */
  loaded(name: string): Promise<string[]>;
  remove(): Promise<void>;
}

export async function moduleRecorder(): Promise<ModuleRecorder> {
  const dir = await mkdtemp(join(tmpdir(), 'kiln-loads-'));
  await writeFile(join(dir, 'preload.mjs'), PRELOAD);
  await writeFile(join(dir, 'hooks.mjs'), HOOKS);
  const record = (name: string) => join(dir, `${name}.txt`);
  return {
    env: (name) => ({
      NODE_OPTIONS: `--import=${pathToFileURL(join(dir, 'preload.mjs')).href}`,
      KILN_LOADED_MODULES: record(name),
    }),
    loaded: async (name) => {
      await expect.poll(() => readFile(record(name), 'utf8').catch(() => ''), { timeout: 5_000 }).toContain('--exit--');
      return (await readFile(record(name), 'utf8')).split('\n').filter(Boolean);
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
