// What every package entry (dist/pkg/<name>.js, written by scripts/bundle-runtime.mjs) loads the runtime through.
//
// Node 20 caches no compiled code for ES modules, and compiling Kiln's chunks is a tenth of a server's cold start. For
// scripts, V8 takes a code cache: the bytecode of every function that ran, written on one start and read on the next.
// So the runtime ships twice, from the same sources in one bundler pass each: as ES modules (dist/pkg/esm) and as
// CommonJS chunks (dist/pkg/cjs). This loader runs the CommonJS chunks through vm.Script with the code cache, and
// falls back to the ES module build where that cannot work or should not:
// - Node without require() of ES modules (before 20.19): the chunks require the SDK and zod, which are ES modules;
// - source maps on (--enable-source-maps): Node 20 maps no frame of code run through vm.Script;
// - inside a vm context (Vitest's vm pools): vm.Script would run the runtime in Node's main realm instead;
// - MCP_CODE_CACHE=off;
// - the `kiln` command, which runs the ES module build (useModuleBuild, before it imports anything).
// The choice is made once per process, so every entry a process imports comes from the same build: one copy of each
// class and token.
//
// The cache lives in MCP_CODE_CACHE_DIR, by default <tmpdir>/mcp-kiln-code-cache-<uid> (a folder only this user may
// write; any other is not used). Each chunk's file is named after the chunk (whose name holds a hash of its content),
// V8's version, and the V8 flags it compiled under with how this loader compiles it (COMPILED_AS), and is written when
// the process exits if it was missing or V8 rejected it. A read-only or foreign folder means no cache: the chunks compile as they would without one.
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// Loaded with the runtime anyway: v8-flags.ts sets the runtime's V8 flags through it.
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { loadBuiltinsLoadedBy } from './builtins-loaded-by.js';
import { readAsciiOutsideMalloc, readOutsideMalloc } from './read-outside-malloc.js';
import { v8FlagsSet } from './v8-flags.js';
import { holdYoungGeneration, outsideHold } from './young-generation.js';

type Exports = Record<string, unknown>;
export type RuntimeFormat = 'cjs' | 'esm';

/** Where the process's choice of build is kept, shared by every copy of this file (useModuleBuild sets it ahead). */
export const FORMAT = Symbol.for('mcp-kiln.runtime-format');
/** What the loader ran, for diagnostics and tests: each chunk's path and whether V8 took its cache. */
export const CHUNKS_RUN = Symbol.for('mcp-kiln.chunks-run');

export type CacheOutcome = 'hit' | 'missing' | 'rejected' | 'off';
export interface ChunkRun {
  readonly path: string;
  readonly cache: CacheOutcome;
}

const global = globalThis as typeof globalThis & {
  [FORMAT]?: RuntimeFormat;
  [CHUNKS_RUN]?: ChunkRun[];
};

/**
 * The build a process with `env` runs, given whether its Node can require() ES modules, has source maps on, and
 * imports mcp-kiln in its main realm (not inside a vm context). MCP_CODE_CACHE is read here, as `mcp-kiln` is
 * imported, before the app's configuration exists; a value other than `on` or `off` stops the import with the same
 * kind of message a bad setting stops boot with.
 */
export function chooseFormat(
  env: NodeJS.ProcessEnv,
  node: { readonly requireModule: boolean; readonly sourceMaps: boolean; readonly mainRealm: boolean },
): RuntimeFormat {
  const setting = env.MCP_CODE_CACHE || 'on';
  if (setting !== 'on' && setting !== 'off') {
    throw new Error(`MCP_CODE_CACHE must be one of on, off (got ${JSON.stringify(setting)}).`);
  }
  return setting === 'off' || !node.requireModule || node.sourceMaps || !node.mainRealm ? 'esm' : 'cjs';
}

/** The build this process runs, decided on the first call (unless useModuleBuild decided it before). */
export function runtimeFormat(): RuntimeFormat {
  global[FORMAT] ??= chooseFormat(process.env, {
    requireModule: process.features.require_module === true,
    sourceMaps: process.sourceMapsEnabled === true,
    // vm.Script runs code in Node's main realm whichever context calls it: imported inside a vm context (Vitest's vm
    // pools, say), the runtime's objects and its caller's would come from two realms, and instanceof fails across.
    mainRealm: new Script('globalThis').runInThisContext() === globalThis,
  });
  return global[FORMAT];
}

/**
 * Makes this process run the ES module build, whatever runtimeFormat() would choose: the `kiln` command calls it
 * before it imports anything, so the app it boots imports the command's own copy of the runtime.
 */
export function useModuleBuild(): void {
  global[FORMAT] = 'esm';
}

/**
 * The exports of one package entry: its CommonJS build `cjsEntry` (a path relative to this file) run from the code
 * cache, or `esm()`, the entry's ES module build.
 */
export async function loadEntry(cjsEntry: string, esm: () => Promise<Exports>): Promise<Exports> {
  // Before the runtime's first module runs, whichever build: booting is what grows the young generation.
  holdYoungGeneration();
  if (runtimeFormat() === 'esm') return esm();
  return chunks().run(fileURLToPath(new URL(cjsEntry, import.meta.url)));
}

/**
 * The folder a process keeps its code caches in, or undefined when there is none it may trust. `uid` is the process's
 * user where the system has POSIX users; on Windows, which has none, the temporary folder is the user's own.
 */
export function cacheFolder(
  env: NodeJS.ProcessEnv = process.env,
  { uid }: { readonly uid: number | undefined } = { uid: process.getuid?.() },
): string | undefined {
  const folder = env.MCP_CODE_CACHE_DIR || join(tmpdir(), `mcp-kiln-code-cache${uid === undefined ? '' : `-${uid}`}`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = lstatSync(folder);
    if (!stat.isDirectory()) return undefined;
    // Code read from this folder runs as this process: it must be this user's folder, which no one else can write to
    // (a shared /tmp lets anyone create a folder of the expected name first).
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
    return folder;
  } catch {
    return undefined;
  }
}

/** A short, stable name for a list of flags (FNV-1a), so caches written under different flags sit apart. */
export function flagsTag(flags: readonly string[]): string {
  let hash = 0x811c9dc5;
  for (const char of flags.join(' ')) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash.toString(36);
}

/**
 * What the build writes around each CommonJS chunk (scripts/bundle-runtime.mjs): the function the loader calls with
 * the chunk's module scope. Written into the file, not added as the file is read, so the source V8 compiles and keeps
 * is the one string read from disk: joined here, each chunk's source (400 KB for the HTTP host) would be read, then
 * copied once more. Head and tail are lines of their own (the bundler adds the line breaks); a stack frame names the
 * line of the file, wrapper included.
 */
export const CHUNK_WRAPPER = {
  head: '(function (exports, require, module, __filename, __dirname, __kilnImport) {',
  tail: '})',
} as const;

/**
 * Named in every cache file with the flags: how this loader compiles a chunk beyond its source. V8 restores a script's
 * origin (its line offset) from the cache and checks the source only by length, so a cache written by a loader that
 * compiled the same chunk differently (before CHUNK_WRAPPER was written into the files, with lineOffset -1) would
 * number every stack frame's line wrong.
 */
const COMPILED_AS = 'whole-file';

interface Compiled {
  readonly script: Script;
  readonly cacheFile: string;
  /** How many of the runtime's V8 flags (v8FlagsSet) were set when the chunk compiled. */
  readonly flagsSet: number;
}

let loader: ReturnType<typeof chunkLoader> | undefined;
const chunks = () => {
  loader ??= chunkLoader(cacheFolder());
  return loader;
};

/** Runs CommonJS chunks by path, each once, with their code caches in `folder` (none if undefined). */
function chunkLoader(folder: string | undefined) {
  const nodeRequire = createRequire(import.meta.url);
  const loaded = new Map<string, { exports: Exports }>();
  const packages = new Map<string, unknown>();
  /** Built-ins a chunk required before: loaded, with what they load later, the first time only. */
  const builtins = new Set<string>();
  const toWrite: Compiled[] = [];
  const runs: ChunkRun[] = [];
  global[CHUNKS_RUN] = runs;
  // The node command line's own flags are part of what V8 checks a cache against.
  const commandFlags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''];

  /**
   * A package the chunks require, resolved as an `import` would be from here (the chunks' own package): a package
   * that ships both builds (the SDK) gives its ES module one, the instance the user's code imports too, which Node
   * loads through require(). One that resolves for require() only is required as is. The Node built-ins it will load
   * are loaded just before, outside the young-generation hold (builtins-loaded-by.ts).
   */
  const requirePackage = (id: string) => {
    if (!packages.has(id)) {
      loadBuiltinsLoadedBy(id, nodeRequire);
      let target = id;
      try {
        target = fileURLToPath(import.meta.resolve(id));
      } catch {}
      packages.set(id, nodeRequire(target));
    }
    return packages.get(id);
  };
  /**
   * A built-in the chunks require. The first time, it loads outside the young-generation hold, from the code cache in
   * the node binary that V8 would reject under it, with the built-ins it will load later (builtins-loaded-by.ts).
   */
  const requireBuiltin = (id: string) => {
    if (!builtins.has(id)) {
      builtins.add(id);
      outsideHold(() => {
        loadBuiltinsLoadedBy(id, nodeRequire);
        nodeRequire(id);
      });
    }
    return nodeRequire(id);
  };
  // A script compiled from a code cache has no dynamic-import callback, so the build rewrote the chunks' import()
  // calls (packages loaded on use: the SDK's stdio entry, OpenTelemetry's API) to this one, which resolves from here.
  const importPackage = (id: string) => import(id);

  const run = (path: string): Exports => {
    const known = loaded.get(path);
    if (known) return known.exports;
    const module = { exports: {} as Exports };
    loaded.set(path, module);
    // The next start will have set the same flags when it compiles this chunk.
    const set = v8FlagsSet();
    const tag = flagsTag([COMPILED_AS, ...commandFlags, ...set.map(({ flag }) => flag)]);
    const cacheFile = folder && join(folder, `${basename(path, '.js')}.${process.versions.v8}.${tag}.cache`);
    const { script, cache } = compile(path, cacheFile);
    runs.push({ path, cache });
    if (cacheFile && cache !== 'hit') {
      if (toWrite.length === 0) process.once('exit', () => writeCaches(toWrite));
      toWrite.push({ script, cacheFile, flagsSet: set.length });
    }
    const folderOfChunk = dirname(path);
    const require = (id: string) => {
      if (id.startsWith('.')) return run(resolve(folderOfChunk, id));
      if (isBuiltin(id)) return requireBuiltin(id);
      return requirePackage(id);
    };
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(module.exports, module.exports, require, module, path, folderOfChunk, importPackage);
    return module.exports;
  };
  return { run };
}

/**
 * Compiles the chunk at `path` with its code cache, if `cacheFile` holds one. A function of its own, so nothing
 * refers to the cache (up to 560 KB, outside V8's heap) while the chunk runs: kept through the collections of a
 * chunk's top level (which requires the SDK and zod), it would reach the old generation and stay until a full one.
 */
function compile(path: string, cacheFile: string | undefined): { script: Script; cache: CacheOutcome } {
  let cachedData: Uint8Array | undefined;
  if (cacheFile) {
    try {
      cachedData = readOutsideMalloc(cacheFile);
    } catch {}
  }
  // The chunks are ASCII (BUNDLE_OUTPUT's charset), so Latin-1 reads them as UTF-8 would.
  const script = new Script(readAsciiOutsideMalloc(path), { filename: path, cachedData });
  return { script, cache: outcomeOf(cacheFile, cachedData, script) };
}

function outcomeOf(cacheFile: string | undefined, cachedData: Uint8Array | undefined, script: Script): CacheOutcome {
  if (!cacheFile) return 'off';
  if (!cachedData) return 'missing';
  return script.cachedDataRejected ? 'rejected' : 'hit';
}

/**
 * Writes each chunk's cache under the flags that were set when it compiled: the flags the runtime set since are
 * undone for the chunks that compiled before them, then set again. A failed write costs only the cache.
 */
function writeCaches(compiled: readonly Compiled[]): void {
  const set = v8FlagsSet();
  const byFlags = [...compiled].sort((a, b) => b.flagsSet - a.flagsSet);
  let current = set.length;
  for (const chunk of byFlags) {
    for (; current > chunk.flagsSet; current--) setFlagsFromString(set[current - 1]!.undo);
    writeAtomically(chunk.cacheFile, chunk.script.createCachedData());
  }
  for (; current < set.length; current++) setFlagsFromString(set[current]!.flag);
}

/** Another process may read `file` while this one writes it: it sees the old file or the new one, never half. */
function writeAtomically(file: string, data: Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}
