// Records what a spawned server loads: every ES module its loader fetched, every CommonJS module in its require cache
// and every module of Node's own (`node:assert`, say), written to a file when it exits. Pass `env(name)` to the child,
// then read `loaded(name)` after it ended.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

/** A package entry of the runtime as a loaded path or URL, in either build (dist/pkg/esm or dist/pkg/cjs). */
export const runtimeEntry = (name: string) => new RegExp(`/dist/pkg/(?:esm|cjs)/${name}\\.js$`);

/**
 * The CommonJS files among what `loaded` lists. The require cache holds ES modules a CommonJS module required too
 * (Node loads an ES module for require() without its CommonJS loader reading anything): those are left out.
 */
export function commonJsFiles(loaded: readonly string[]): string[] {
  return loaded.filter((path) => path.startsWith('/') && !isEsModule(path));
}

/** Whether a folder's package scope is ES modules, by the nearest package.json; read once per folder. */
const moduleScopes = new Map<string, boolean>();

function isEsModule(path: string): boolean {
  if (path.endsWith('.mjs')) return true;
  if (path.endsWith('.cjs')) return false;
  return isModuleScope(dirname(path));
}

function isModuleScope(folder: string): boolean {
  let scope = moduleScopes.get(folder);
  if (scope === undefined) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest))
      scope = (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module';
    else scope = dirname(folder) !== folder && isModuleScope(dirname(folder));
    moduleScopes.set(folder, scope);
  }
  return scope;
}
