// The bundled runtime `npm run build` writes to dist/pkg (scripts/bundle-runtime.mjs), which every package entry
// loads, in either of its builds (the CommonJS one the runtime loader runs with V8's code cache, the ES module one):
// one copy of each class whichever entry exports it, the same exports from both, third-party packages left as imports
// of declared dependencies (but for the INLINED few and what they import, whose licences ship with it), and source
// maps that lead back to the sources.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Server as HttpsServer } from 'node:https';
import { builtinModules, createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  CJS,
  ESM,
  IN_PACKAGE,
  INLINED,
  LAZY_BUILTINS,
  LICENSES_FILE,
  packageOf,
  STUBS,
} from '../../scripts/bundle-runtime.mjs';
import { FORMAT } from '../../src/loading/runtime-loader.js';
import { REPO } from '../support/packed-kiln.js';

const run = promisify(execFile);
const PKG = join(REPO, 'dist', 'pkg');

interface Manifest {
  readonly name: string;
  readonly main: string;
  readonly bin: Readonly<Record<string, string>>;
  readonly exports: Readonly<Record<string, string | { readonly module: string; readonly import: string }>>;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly peerDependencies: Readonly<Record<string, string>>;
}
const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Manifest;
const specifiers = Object.entries(manifest.exports).flatMap(([subpath, target]) =>
  typeof target === 'string' ? [] : [subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`],
);

function bundleFiles(suffix: string): string[] {
  if (!existsSync(PKG)) throw new Error(`${PKG} does not exist: run npm run build first.`);
  return readdirSync(PKG, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith(suffix))
    .map((path) => join(PKG, path));
}

/** A static import or re-export as the minified bundle writes them; and a dynamic import of a literal. */
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*"([^"]+)";/g;
const DYNAMIC_IMPORT = /\bimport\((["`])([^"`]+)\1\)/g;
/** The CommonJS build's require() of a package or built-in, and its dynamic imports, which go through the loader. */
const CJS_REQUIRE = /(?<![\w$.])require\((["`])([^"`.][^"`]*)\1\)/g;
const CJS_DYNAMIC_IMPORT = /\b__kilnImport\((["`])([^"`]+)\1\)/g;
/** Each build, as the runtime loader's switch selects it in a child process. */
const BUILDS = [
  { build: CJS, env: {} },
  { build: ESM, env: { MCP_CODE_CACHE: 'off' } },
] as const;
/** A require() the inlined CommonJS packages make, as the bundler rewrites it (the minifier may quote with backticks). */
const BUNDLED_REQUIRE = /\b__require\((["`])([^"`]+)\1\)/g;
/** The specifier a STATIC_IMPORT, DYNAMIC_IMPORT or BUNDLED_REQUIRE match names: its last group. */
const specifierOf = (match: RegExpMatchArray) => match.at(-1)!;

const mapSources = () =>
  bundleFiles('.js.map').flatMap((map) => (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources);

/** The packages under node_modules whose code the bundle holds, as its source maps name them. */
function inlinedPackages(): string[] {
  const names = mapSources().flatMap((source) => {
    const name = IN_PACKAGE.exec(source)?.[2];
    return name ? [name] : [];
  });
  return [...new Set(names)].sort();
}

describe('the bundled runtime (dist/pkg)', () => {
  it('is what package.json main, exports and bin load, with the ES module build for bundlers', () => {
    const targets = [manifest.main, manifest.bin.kiln!, ...Object.values(manifest.exports)].flatMap((target) =>
      typeof target === 'string' ? [target] : [target.import],
    );
    const code = targets.filter((target) => target.endsWith('.js'));
    expect(code.length).toBe(specifiers.length + 2);
    for (const target of code) {
      expect(target).toMatch(/^\.\/dist\/pkg\/[a-z]+\.js$/);
      expect(existsSync(join(REPO, target)), target).toBe(true);
    }
    expect(readFileSync(join(REPO, manifest.bin.kiln!), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    // Node ignores the `module` condition; bundlers (kiln bundle among them) resolve it, to the ES module build.
    for (const target of Object.values(manifest.exports)) {
      if (typeof target === 'string') continue;
      expect(target.module).toBe(target.import.replace('/dist/pkg/', `/dist/pkg/${ESM}/`));
      expect(existsSync(join(REPO, target.module)), target.module).toBe(true);
    }
  });

  /** What each entry exports in a process that runs `build`: name → the first entry's value, and names per entry. */
  const readExports = async (env: Readonly<Record<string, string>>) => {
    const script = `
      const seen = new Map();
      const split = [];
      const names = {};
      const renamed = new Set();
      for (const specifier of ${JSON.stringify(specifiers)}) {
        const entry = await import(specifier);
        names[specifier] = Object.keys(entry);
        for (const [name, value] of Object.entries(entry)) {
          if (seen.has(name) && seen.get(name).value !== value) split.push(name + ': ' + seen.get(name).from + ' / ' + specifier);
          else seen.set(name, { value, from: specifier });
          // Functions a factory makes (the error helpers) have no name to keep.
          if (typeof value === 'function' && value.name !== '' && value.name !== name) renamed.add(name + ': ' + value.name);
        }
      }
      const format = globalThis[Symbol.for(${JSON.stringify(FORMAT.description)})];
      console.log(JSON.stringify({ format, size: seen.size, split, names, renamed: [...renamed] }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: REPO,
      env: { ...process.env, ...env },
    });
    return JSON.parse(stdout) as {
      format: string;
      size: number;
      split: string[];
      names: Record<string, string[]>;
      renamed: string[];
    };
  };

  // One child process per build, whose answer the three tests below share.
  const answers = new Map<string, ReturnType<typeof readExports>>();
  const entryExports = (env: Readonly<Record<string, string>>) => {
    const key = JSON.stringify(env);
    if (!answers.has(key)) answers.set(key, readExports(env));
    return answers.get(key)!;
  };

  it.each(BUILDS)(
    'exports one copy of each class and token, whichever entry a user imports it through ($build build)',
    async ({ build, env }) => {
      const { format, size, split } = await entryExports(env);
      expect(format).toBe(build);
      expect(size).toBeGreaterThan(50);
      expect(split).toEqual([]);
    },
  );

  it('exports the same names from either build', async () => {
    const [cjs, esm] = await Promise.all(BUILDS.map(({ env }) => entryExports(env)));
    expect(Object.keys(cjs!.names)).toEqual(specifiers);
    expect(cjs!.names).toEqual(esm!.names);
  });

  it.each(BUILDS)(
    'keeps the name of every exported function and class: the minifier shortens local names only ($build build)',
    async ({ env }) => {
      // Stack traces, error messages and anything else reading a function's or class's name see the declared one.
      // The one export declared under another name: the SDK's inputRequired builder, re-exported from the SDK itself.
      expect((await entryExports(env)).renamed).toEqual(['inputRequired: buildInputRequired']);
    },
  );

  it('imports third-party code only as declared dependencies, and never a package it also inlines', () => {
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    const builtins = new Set(builtinModules);
    const undeclared = new Set<string>();
    const imported = new Set<string>();
    for (const file of bundleFiles('.js')) {
      const code = readFileSync(file, 'utf8');
      const found = [STATIC_IMPORT, DYNAMIC_IMPORT, CJS_REQUIRE, CJS_DYNAMIC_IMPORT]
        .flatMap((pattern) => [...code.matchAll(pattern)])
        .map(specifierOf);
      for (const specifier of found.filter((found) => !found.startsWith('.'))) {
        const bare = specifier.replace(/^node:/, '');
        if (builtins.has(bare)) continue;
        imported.add(packageOf(specifier));
        if (!declared.has(packageOf(specifier))) undeclared.add(specifier);
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    expect([...undeclared]).toEqual([]);
    // What the inlined CommonJS packages still require is Node's own: any package they need is inlined too.
    const required = bundleFiles('.js').flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(BUNDLED_REQUIRE)].map(specifierOf),
    );
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((specifier) => !builtins.has(specifier.replace(/^node:/, '')))).toEqual([]);
    const inlined = inlinedPackages();
    for (const name of Object.keys(INLINED)) expect(inlined).toContain(name);
    // One copy of each: a package compiled in is not also loaded from node_modules beside it.
    expect(inlined.filter((name) => imported.has(name))).toEqual([]);
  });

  it('holds Fastify without what the HTTP host never runs: schema compilers, inject, the null logger, semver, proxy-addr', () => {
    const inlined = inlinedPackages();
    expect(inlined).toContain('fastify');
    expect(inlined.filter((name) => name in STUBS || name === 'ajv')).toEqual([]);
    // Fastify's precompiled error serializer needs only fast-json-stringify's runtime helpers, not its compiler.
    expect(mapSources().filter((source) => source.endsWith('/fast-json-stringify/index.js'))).toEqual([]);
  });

  it('stubs what the bundled packages require and the runtime never runs with an error that says so', () => {
    expect(Object.keys(STUBS).length).toBeGreaterThan(0);
    for (const [name, source] of Object.entries(STUBS)) {
      const module = { exports: undefined as unknown };
      new Function('module', source)(module);
      expect(typeof module.exports, name).toBe('function');
      expect(() => (module.exports as () => unknown)(), name).toThrow(/^mcp-kiln's bundled .+: .+\.$/);
    }
  });

  it('compiles in stand-ins that load a built-in only when it is used, and then behave as it does', () => {
    expect(Object.keys(LAZY_BUILTINS).sort()).toEqual(['assert', 'node:https']);
    const loads: string[] = [];
    const nodeRequire = createRequire(import.meta.url);
    const standIn = <T>(name: keyof typeof LAZY_BUILTINS): T => {
      const module = { exports: undefined as unknown };
      const load = (builtin: string) => {
        loads.push(builtin);
        return nodeRequire(builtin);
      };
      new Function('module', 'require', LAZY_BUILTINS[name])(module, load);
      return module.exports as T;
    };

    const assert = standIn<(value: unknown, message: string) => void>('assert');
    assert(1, 'a number');
    expect(loads).toEqual([]);
    expect(() => assert(undefined, 'sonic.fd must be a number, got undefined')).toThrow(
      expect.objectContaining({ name: 'AssertionError', message: 'sonic.fd must be a number, got undefined' }),
    );
    expect(loads).toEqual(['node:assert']);

    const https = standIn<{ createServer: (options: object, listener: () => void) => unknown }>('node:https');
    expect(loads).toEqual(['node:assert']);
    expect(https.createServer({}, () => {})).toBeInstanceOf(HttpsServer);
    expect(loads).toEqual(['node:assert', 'node:https']);
  });

  it('ships the licence of every package compiled in beside the bundle', () => {
    const licences = readFileSync(join(PKG, LICENSES_FILE), 'utf8');
    const inlined = inlinedPackages();
    expect(inlined.length).toBeGreaterThan(Object.keys(INLINED).length);
    for (const name of inlined) expect(licences).toMatch(new RegExp(`^## ${name} \\d+\\.\\d+\\.\\d+ `, 'm'));
    expect(licences).toContain('Permission is hereby granted, free of charge');
  });

  it('holds nothing beyond ASCII, so V8 holds its sources at one byte per character and Latin-1 reads them', () => {
    const files = bundleFiles('.js');
    expect(files.length).toBeGreaterThan(5);
    // V8 keeps a source as one byte per character while every character is Latin-1; one more makes it two. The
    // loader reads a chunk as Latin-1 (src/loading/read-outside-malloc.ts), which reads UTF-8 right only for ASCII.
    expect(files.filter((file) => /[\u0080-\u{10ffff}]/u.test(readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('maps every bundled line back to the TypeScript sources', () => {
    expect(bundleFiles('.js.map').length).toBeGreaterThan(5);
    const sources = mapSources();
    const ours = sources.filter((source) => !source.includes('node_modules/'));
    expect(ours.filter((source) => !/^(\.\.\/)+(src|decorators|modules)\/.+\.ts$/.test(source))).toEqual([]);
    expect(sources.some((source) => source.endsWith('src/bootstrap/create-app.ts'))).toBe(true);
  });
});
