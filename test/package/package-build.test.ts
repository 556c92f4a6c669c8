// What `npm run build` writes for the package (rolldown.config.mjs): Kiln's own code as an ES module build and a
// CommonJS build, with the same exports, source maps to the TypeScript sources, every third-party package left an
// import of a declared dependency, and nothing that changes the host's runtime.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO } from '../support/packed-kiln.js';

const run = promisify(execFile);
const PKG = join(REPO, 'dist', 'pkg');
const BUILDS = ['esm', 'cjs'] as const;

interface Condition {
  readonly types: string;
  readonly default: string;
}
interface Manifest {
  readonly name: string;
  readonly main: string;
  readonly module: string;
  readonly types: string;
  readonly bin: Readonly<Record<string, string>>;
  readonly exports: Readonly<Record<string, string | { readonly import: Condition; readonly require: Condition }>>;
  readonly typesVersions: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly peerDependencies: Readonly<Record<string, string>>;
}
const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Manifest;
const entries = Object.entries(manifest.exports).flatMap(([subpath, target]) =>
  typeof target === 'string'
    ? []
    : [{ specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`, ...target }],
);

function filesOf(build: (typeof BUILDS)[number], suffix: string): string[] {
  const folder = join(PKG, build);
  if (!existsSync(folder)) throw new Error(`${folder} does not exist: run npm run build first.`);
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith(suffix) && !path.startsWith('types/'))
    .map((path) => join(folder, path));
}

/** Every module specifier a built file imports or requires (static, dynamic, re-export). */
function specifiersIn(code: string): string[] {
  const found = [
    ...code.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/g),
    ...code.matchAll(/(?:^|\n)\s*import\s*["']([^"']+)["']/g),
    ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
    ...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g),
  ];
  return found.map((match) => match[1] as string);
}

const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('the package build (dist/pkg)', () => {
  it('is what main, module, types, typesVersions, every export condition and bin name', () => {
    const targets = [
      manifest.main,
      manifest.module,
      manifest.types,
      ...Object.values(manifest.bin),
      ...entries.flatMap((entry) => [
        entry.import.types,
        entry.import.default,
        entry.require.types,
        entry.require.default,
      ]),
      ...Object.values(manifest.typesVersions['*'] ?? {}).flat(),
    ];
    expect(targets.filter((target) => !existsSync(join(REPO, target)))).toEqual([]);
    expect(JSON.parse(readFileSync(join(PKG, 'cjs', 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
  });

  it.each(BUILDS)('imports only Node built-ins, its own entries and declared dependencies (%s)', (build) => {
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    const builtins = new Set(builtinModules);
    const undeclared = filesOf(build, '.js').flatMap((file) =>
      specifiersIn(readFileSync(file, 'utf8')).flatMap((specifier) => {
        if (specifier.startsWith('.') || specifier.startsWith('node:') || builtins.has(specifier)) return [];
        return declared.has(packageOf(specifier)) ? [] : [`${relative(PKG, file)} → ${specifier}`];
      }),
    );
    expect(undeclared).toEqual([]);
    // The CLI loads rolldown for `kiln bundle`, an optional peer; fastify, pino and tsyringe are imports, not code.
    const all = filesOf(build, '.js').flatMap((file) => specifiersIn(readFileSync(file, 'utf8')));
    for (const name of ['pino', 'tsyringe']) expect(all, name).toContain(name);
  });

  it.each(BUILDS)("maps every line to Kiln's own TypeScript sources, inlined (%s)", (build) => {
    const maps = filesOf(build, '.js.map');
    expect(maps.length).toBeGreaterThan(5);
    for (const path of maps) {
      const map = JSON.parse(readFileSync(path, 'utf8')) as { sources: string[]; sourcesContent?: unknown[] };
      const foreign = map.sources.filter((source) => !/^(\.\.\/)+(src|modules|decorators)\/.+\.ts$/.test(source));
      expect(foreign, relative(PKG, path)).toEqual([]);
      const inlined = map.sources.filter((_, index) => typeof map.sourcesContent?.[index] === 'string');
      expect(inlined, relative(PKG, path)).toEqual(map.sources);
    }
  });

  it("holds nothing that changes the host's runtime: no V8 flags, vm scripts or code caches", () => {
    const forbidden = /setFlagsFromString|\bvm\.Script\b|new Script\(|runInThisContext|createCachedData|cachedData\b/;
    const offending = BUILDS.flatMap((build) =>
      filesOf(build, '.js').filter((file) => forbidden.test(readFileSync(file, 'utf8'))),
    );
    expect(offending.map((file) => relative(PKG, file))).toEqual([]);
    // Node's compile cache is turned on by the kiln command's process only, never by the library.
    const caching = BUILDS.flatMap((build) =>
      filesOf(build, '.js').filter((file) => readFileSync(file, 'utf8').includes('enableCompileCache')),
    );
    expect(caching.map((file) => relative(PKG, file))).toEqual([join('esm', 'cli.js')]);
  });

  it('loads every export with require() and with import, with the same names', async () => {
    const specifiers = entries.map((entry) => entry.specifier);
    const requireAll = `const out = {}; for (const s of ${JSON.stringify(specifiers)}) out[s] = Object.keys(require(s)).sort(); console.log(JSON.stringify(out));`;
    const importAll = `const out = {}; for (const s of ${JSON.stringify(specifiers)}) out[s] = Object.keys(await import(s)).sort(); console.log(JSON.stringify(out));`;
    const required = await run(process.execPath, ['-e', requireAll], { cwd: REPO, timeout: 30_000 });
    const imported = await run(process.execPath, ['--input-type=module', '-e', importAll], {
      cwd: REPO,
      timeout: 30_000,
    });
    const names = JSON.parse(required.stdout) as Record<string, string[]>;
    expect(Object.keys(names)).toEqual(specifiers);
    expect(names[manifest.name]).toContain('createApp');
    expect(names).toEqual(JSON.parse(imported.stdout));
  });

  it('has no top-level await anywhere an entry of the ES module build reaches', async () => {
    // require() of an ES module graph that awaits at top level throws ERR_REQUIRE_ASYNC_MODULE, wherever the await is.
    const cli = manifest.bin.kiln as string;
    const files = [...entries.map((entry) => entry.import.default), cli];
    const probe = `const out = {};
      for (const file of ${JSON.stringify(files)}) {
        try { require(file); out[file] = 'ok'; } catch (error) { out[file] = error.code ?? String(error); }
      }
      console.log(JSON.stringify(out));`;
    const { stdout } = await run(process.execPath, ['-e', probe], { cwd: REPO, timeout: 30_000 });
    // The kiln command awaits at top level (a program, never required): the probe must see that one.
    expect(JSON.parse(stdout)).toEqual({
      ...Object.fromEntries(entries.map((entry) => [entry.import.default, 'ok'])),
      [cli]: 'ERR_REQUIRE_ASYNC_MODULE',
    });
  });

  it('requires, never imports, in the CommonJS build: a CommonJS app loads one copy of each package', () => {
    const importing = filesOf('cjs', '.js').filter((file) => /\bimport\s*\(/.test(readFileSync(file, 'utf8')));
    expect(importing.map((file) => relative(PKG, file))).toEqual([]);
  });
});
