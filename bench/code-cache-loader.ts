// The loader of bench/code-cache.ts, a measurement prototype and not the format Kiln ships: it runs the runtime built
// as CommonJS chunks through vm.Script with V8's code cache, which Node 20 offers for scripts but not for ES modules.
// Each chunk's cache sits beside it (<chunk>.v8cache); with KILN_CODE_CACHE_WRITE=1 the process writes them when it
// exits, so they hold every function that ran, not only the top level.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

type Exports = Record<string, unknown>;

const nodeRequire = createRequire(import.meta.url);
const writing = process.env.KILN_CODE_CACHE_WRITE === '1';
// V8 reads a cache only in the flag state it was written in. With MCP_V8_PRETENURING=off (Kiln's default) the app
// turns allocation-site pretenuring off once it is created: the chunks that load with the entry compile before that,
// the HTTP host's chunk after. Each cache is written in its chunk's state.
const pretenuringSwitched = process.env.MCP_V8_PRETENURING !== 'on';
const compiled: { script: Script; cacheFile: string; beforeApp: boolean }[] = [];
let entryLoaded = false;
if (writing) {
  process.on('exit', () => {
    for (const beforeApp of [true, false]) {
      if (pretenuringSwitched)
        setFlagsFromString(beforeApp ? '--allocation-site-pretenuring' : '--no-allocation-site-pretenuring');
      for (const chunk of compiled.filter((entry) => entry.beforeApp === beforeApp)) {
        writeFileSync(chunk.cacheFile, chunk.script.createCachedData());
      }
    }
  });
}

/**
 * Runs the CommonJS chunk `file` and what it requires. `externals` are the packages the chunks require, imported as
 * ES modules by the caller (the SDK and zod ship no CommonJS); Node's built-ins come from Node's require.
 */
export function loadRuntime(file: string, externals: Readonly<Record<string, Exports>>): Exports {
  const loaded = new Map<string, { exports: Exports }>();
  const load = (path: string): Exports => {
    const known = loaded.get(path);
    if (known) return known.exports;
    const module = { exports: {} as Exports };
    loaded.set(path, module);
    const cacheFile = `${path}.v8cache`;
    const cachedData = !writing && existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
    // A script compiled from a code cache loses its dynamic-import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING),
    // so its import() calls go through a function this loader passes in.
    const source = readFileSync(path, 'latin1').replaceAll('import(`', '__kilnImport(`');
    const script = new Script(
      `(function (exports, require, module, __filename, __dirname, __kilnImport) {${source}\n})`,
      { filename: path, cachedData },
    );
    if (cachedData && script.cachedDataRejected) process.emitWarning(`V8 rejected the code cache of ${path}`);
    compiled.push({ script, cacheFile, beforeApp: !entryLoaded });
    const folder = dirname(path);
    const require = (id: string) =>
      id.startsWith('.') ? load(resolve(folder, id)) : Object.hasOwn(externals, id) ? externals[id] : nodeRequire(id);
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run.call(module.exports, module.exports, require, module, path, folder, (id: string) => import(id));
    return module.exports;
  };
  const exports = load(file);
  entryLoaded = true;
  return exports;
}
