// Bundles the compiled runtime (tsc's output under dist/) into dist/pkg, so `import 'mcp-kiln'` reads a handful of
// files instead of ~170. On Node 20 resolving, reading and compiling module files is most of a server's cold start
// (see the README's performance section). dist/pkg holds:
// - esm/: the runtime as ES modules, one file per package.json export and one for the kiln command, plus the chunks
//   they share. The kiln command and bundlers (package.json's `module` condition) load it, and so does Node wherever
//   the CommonJS build cannot run (src/loading/runtime-loader.ts);
// - cjs/: the same as CommonJS chunks (but the kiln command), which the runtime loader runs through vm.Script with
//   V8's code cache: Node 20 has none for ES modules. Each is written inside the loader's CHUNK_WRAPPER, a function
//   expression, so it is a script for the loader only;
// - runtime-loader.js, and <name>.js per export: a facade that loads the entry from one of the two builds.
//
// - Every entry is built in one pass per build: a class, token or metadata key exists once, whichever entry a user
//   reaches it through. The runtime's own `mcp-kiln/...` imports (the HTTP host, auth and Redis, loaded on use) are
//   pointed back at those same entries, so they stay separate chunks that stdio never loads.
// - Kiln's code is bundled, and of node_modules only the packages in INLINED (below). Every other package stays an
//   import: users share one copy of the SDK, zod, OpenTelemetry's API and the rest with their own code, and npm's
//   dedupe keeps working.
// - Each input's tsc source map is fed to the bundler, so a stack trace in the ES module build maps back to the
//   TypeScript source (with source maps on, Node loads that build).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
export const OUT_DIR = join(dist, 'pkg');
/** The kiln command is not an export; its compiled entry is named here. */
const CLI = { name: 'cli', compiled: './dist/src/cli/main.js', bin: './dist/pkg/cli.js' };
/** The runtime loader every entry facade imports (src/loading/runtime-loader.ts), bundled on its own. */
const LOADER = { compiled: join(dist, 'src', 'loading', 'runtime-loader.js'), file: 'runtime-loader.js' };
/** The two builds' folders under OUT_DIR. */
export const ESM = 'esm';
export const CJS = 'cjs';
/**
 * The kiln bin: the ES module build (the command holds top-level await, which CommonJS cannot), and so is every
 * mcp-kiln entry its process imports (the app `kiln inspect` boots, say), or the app's classes would not be the
 * command's.
 */
const CLI_FACADE = `#!/usr/bin/env node
import { useModuleBuild } from './${LOADER.file}';
useModuleBuild();
await import('./${ESM}/${CLI.name}.js');
`;

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * Packages compiled into the bundle instead of imported, each with every package it imports in turn (the bundler
 * finds those from the importing package's own folder, as Node would). Each is private to the runtime: no module of
 * its reaches a user, at most an object it made, such as the app's pino logger, which works the same whichever copy
 * made it; Fastify serves the HTTP host and no Fastify object or type leaves it. None keeps state another copy would
 * have to share (reflect-metadata keeps its metadata in a registry every copy finds through a global symbol). And all
 * are slow to load from node_modules: they are CommonJS, and on Node 20 a server that loads none pays neither Node's
 * CommonJS loader nor a file per module (tsyringe alone is 34 files, pino and what it requires 31, Fastify and its
 * dependencies about 140, 47 of them semver). `module` names the file to compile in place of the main entry (an ES
 * module build). The licence of every package compiled in ships beside the bundle in LICENSES_FILE.
 */
export const INLINED = {
  tsyringe: { module: 'dist/esm2015/index.js' },
  'reflect-metadata': {},
  pino: {},
  fastify: {},
};
/** ES module builds compiled in place of the main entry of packages the INLINED ones import: tsyringe's helpers. */
const MODULE_BUILDS = { tslib: 'tslib.es6.js' };
export const LICENSES_FILE = 'THIRD_PARTY_LICENSES.md';

const neverCalled = (what, why) =>
  `module.exports = function () {\n  throw new Error(${JSON.stringify(`mcp-kiln's bundled ${what}: ${why}`)});\n};`;

/**
 * Modules the bundled packages require that the runtime never runs, compiled in as a stub that says so if it ever
 * runs. No one but Kiln can reach the bundled pino or Fastify to ask for them.
 */
export const STUBS = {
  // pino.transport() (log targets in a worker thread): Kiln's logger writes to a destination stream.
  'thread-stream': neverCalled('pino has no transports (thread-stream)', 'pass the logger a destination stream.'),
  // Fastify's logger when it is given none: the HTTP host always gives it the app's.
  'abstract-logging': neverCalled('Fastify has no null logger', 'the HTTP host always passes its logger.'),
  // Fastify's schema compilers (Ajv, fast-json-stringify): the HTTP host passes builders of its own, as its routes
  // declare no schemas.
  '@fastify/ajv-compiler': neverCalled('Fastify has no Ajv compiler', 'the HTTP host declares no route schemas.'),
  '@fastify/fast-json-stringify-compiler': neverCalled(
    'Fastify has no response serializer compiler',
    'the HTTP host declares no route schemas.',
  ),
  // fastify.inject(): the HTTP host serves sockets only.
  'light-my-request': neverCalled('Fastify cannot inject requests', 'test the HTTP host over a real socket.'),
  // Fastify's plugin version check (a plugin whose metadata names a Fastify range): the host registers no plugin.
  semver: neverCalled('Fastify checks no plugin versions (semver)', 'the HTTP host registers no plugin naming one.'),
  // request.ip and friends behind a trusted proxy (trustProxy): the host sets none.
  '@fastify/proxy-addr': neverCalled('Fastify trusts no proxy (proxy-addr)', 'the HTTP host sets no trustProxy.'),
};

/**
 * Node built-ins a bundled package requires as it loads but uses only on a path the runtime rarely or never takes,
 * compiled in as a stand-in that requires the built-in on first use. Loading one costs 1.5–2 ms of a cold start.
 * A stand-in's own require names the built-in directly and is left to Node.
 */
export const LAZY_BUILTINS = {
  // sonic-boom (pino's destination) asserts its file descriptor when it closes; the assertion module loads on failure.
  assert: [
    'module.exports = function assert(value, message) {',
    "  if (!value) require('node:assert')(value, message);",
    '};',
  ].join('\n'),
  // Fastify creates an HTTPS server only when given TLS options; the HTTP host serves plain HTTP (TLS ends in front).
  'node:https': [
    'module.exports = {',
    "  createServer: (...args) => require('node:https').createServer(...args),",
    '};',
  ].join('\n'),
};

/** The folder of package `name` as Node would find it from `start`: the nearest node_modules/<name> above it. */
function packageDir(name, start) {
  for (let folder = start; ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(folder) === folder) throw new Error(`${name} is not installed (looked above ${start}).`);
  }
}

const LICENCE_FILE = /^(licen[cs]e|copying)(\.(md|txt))?$/i;

/** A file inside a package under node_modules (the innermost one): [, the package's folder, its name]. */
export const IN_PACKAGE = /^(.*\/node_modules\/((?:@[^/]+\/)?[^/]+))\//;

/** Name, version, licence and licence text of each package a module of the bundle came from. */
function packagesIn(moduleIds) {
  const dirs = new Set();
  for (const id of moduleIds) {
    const match = IN_PACKAGE.exec(id);
    if (match) dirs.add(match[1]);
  }
  return [...dirs]
    .map((dir) => {
      const { name, version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const file = readdirSync(dir).find((entry) => LICENCE_FILE.test(entry));
      if (!file) throw new Error(`${name} ${version} is compiled into the bundle but ships no licence file in ${dir}.`);
      return { name, version, license, licenceText: readFileSync(join(dir, file), 'utf8') };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `pino/file` → `pino`. */
export const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const STUB = '\0stub:';
/** The stand-in (STUBS, LAZY_BUILTINS) compiled in place of `id` when a bundled module imports it, if there is one. */
function standIn(id, importer) {
  // A stand-in's own require of the built-in goes to Node.
  if (importer?.startsWith(STUB)) return undefined;
  if (Object.hasOwn(STUBS, id)) return STUBS[id];
  if (Object.hasOwn(LAZY_BUILTINS, id)) return LAZY_BUILTINS[id];
  return undefined;
}

/** Compiles each of STUBS and LAZY_BUILTINS in place of the module it names. */
const stubs = {
  name: 'kiln-stubs',
  resolveId: (id, importer) => (standIn(id, importer) === undefined ? null : `${STUB}${id}`),
  load: (id) => (id.startsWith(STUB) ? standIn(id.slice(STUB.length)) : null),
};

/** Compiles the ES module build INLINED or MODULE_BUILDS names in place of a package's main entry. */
const moduleBuilds = {
  name: 'kiln-module-builds',
  resolveId(id, importer) {
    const file =
      (Object.hasOwn(INLINED, id) && INLINED[id].module) || (Object.hasOwn(MODULE_BUILDS, id) && MODULE_BUILDS[id]);
    return file ? join(packageDir(id, importer ? dirname(importer) : root), file) : null;
  },
};

function licencesText(packages) {
  const sections = packages.map(
    (pkg) => `## ${pkg.name} ${pkg.version} (${pkg.license})\n\n\`\`\`\n${pkg.licenceText.trim()}\n\`\`\`\n`,
  );
  return `# Third-party code in this bundle\n\nThe files in this folder include the following packages, compiled in by scripts/bundle-runtime.mjs.\n\n${sections.join('\n')}`;
}

/**
 * Each package.json export's entry (named after its subpath: '.' → index, './http' → http), compiled from the file its
 * `types` names, plus the kiln command's. package.json must point `import` at the facade and `module` (the condition
 * bundlers resolve, Node ignores) at the ES module build; both are checked here.
 */
function entries() {
  const found = { [CLI.name]: CLI.compiled };
  const self = {};
  const specifiers = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue; // ./package.json
    const name = subpath === '.' ? 'index' : subpath.slice(2);
    const compiled = target.types.replace(/\.d\.ts$/, '.js');
    const expected = { module: `./dist/pkg/${ESM}/${name}.js`, import: `./dist/pkg/${name}.js` };
    for (const [condition, path] of Object.entries(expected)) {
      if (target[condition] !== path)
        throw new Error(
          `package.json exports["${subpath}"].${condition} is ${target[condition]}; the bundle writes ${path}.`,
        );
    }
    found[name] = compiled;
    specifiers[name] = subpath === '.' ? manifest.name : `${manifest.name}/${name}`;
    self[specifiers[name]] = join(root, compiled);
  }
  if (manifest.bin.kiln !== CLI.bin)
    throw new Error(`package.json bin.kiln is ${manifest.bin.kiln}; the bundle writes ${CLI.bin}.`);
  for (const compiled of [...Object.values(found), LOADER.compiled]) {
    if (!existsSync(resolve(root, compiled))) throw new Error(`${compiled} is missing: run tsc before bundling.`);
  }
  const input = Object.fromEntries(Object.entries(found).map(([name, path]) => [name, join(root, path)]));
  return { input, self, specifiers };
}

/** Hands the bundler each compiled file together with tsc's map of it, so the bundle's maps reach the .ts sources. */
const tscSourceMaps = {
  name: 'kiln-tsc-source-maps',
  load(id) {
    if (!id.startsWith(`${dist}/`) || !id.endsWith('.js')) return null;
    const code = readFileSync(id, 'utf8');
    const mapPath = `${id}.map`;
    if (!existsSync(mapPath)) return code;
    return { code: code.replace(/\/\/# sourceMappingURL=\S+\s*$/, ''), map: readFileSync(mapPath, 'utf8') };
  },
};

/**
 * The CommonJS build runs through vm.Script with a code cache, and V8 gives a script compiled from a cache no
 * dynamic-import callback: each dynamic import of a package (the bundler writes them as import(`<specifier>`)) goes
 * through the loader's __kilnImport instead. A chunk the runtime loads on use is a require() in the CommonJS output.
 */
const cacheableImports = {
  name: 'kiln-cacheable-imports',
  renderChunk(code, chunk) {
    const rewritten = code.replace(DYNAMIC_IMPORT, '__kilnImport(');
    const left = /(?<![\w$.])import\s*\(/.exec(rewritten);
    if (left) {
      const where = rewritten.slice(left.index, left.index + 80);
      throw new Error(`${chunk.fileName} keeps a dynamic import the runtime loader cannot serve: ${where}`);
    }
    return { code: rewritten, map: null };
  },
};
/** A dynamic import of a literal specifier, as the bundler writes it before minifying. */
const DYNAMIC_IMPORT = /(?<![\w$.])import\s*\((?=\s*["'`])/g;

/**
 * One bundler pass over `input` with the output settings `kiln bundle` uses too (`base`, BUNDLE_OUTPUT) and `output`
 * over them; a warning (a circular chunk, an unresolved import) is a fault in the runtime's shape.
 */
async function bundle(input, self, base, { plugins = [], ...output }) {
  const warnings = [];
  const { output: files } = await build({
    input,
    platform: 'node',
    resolve: { alias: self },
    // Kept as imports: Node's built-ins, and the packages Kiln's own code imports but for INLINED. Whatever an inlined
    // package imports is compiled in with it (or stubbed).
    external: (id, importer) => {
      if (standIn(id, importer) !== undefined) return false;
      if (isBuiltin(id)) return true;
      if (/^[./\0]/.test(id) || id in self) return false;
      return !(Object.hasOwn(INLINED, packageOf(id)) || importer?.includes('/node_modules/'));
    },
    plugins: [stubs, moduleBuilds, tscSourceMaps, ...plugins],
    onLog: (level, log) => {
      if (level === 'warn') warnings.push(log.message);
    },
    output: { ...base, chunkFileNames: 'chunks/[name]-[hash].js', ...output },
  });
  if (warnings.length > 0) throw new Error(`Bundling the runtime warned:\n${warnings.join('\n')}`);
  return files.filter((file) => file.type === 'chunk');
}

/** An entry facade: the entry's exports, from the build runtime-loader.js picks for the process. */
function facadeSource(specifier, cjsFile, esmFile, exports) {
  const named = exports.filter((name) => name !== 'default');
  return [
    `// ${specifier}: the runtime's CommonJS build run with V8's code cache, or its ES module build (runtime-loader.js).`,
    `import { loadEntry } from './${LOADER.file}';`,
    `const entry = await loadEntry('./${CJS}/${cjsFile}', () => import('./${ESM}/${esmFile}'));`,
    ...(named.length > 0 ? [`export const { ${named.join(', ')} } = entry;`] : []),
    ...(exports.includes('default') ? ['export default entry.default;'] : []),
    '',
  ].join('\n');
}

/**
 * Bundles into OUT_DIR: the ES module build (ESM, also what the kiln command and bundlers load), the CommonJS build
 * (CJS) the runtime loader runs with V8's code cache, the loader, and a facade per package.json export that loads
 * one of the two (src/loading/runtime-loader.ts says which and why).
 */
export async function bundleRuntime() {
  // Compiled by tsc before the bundle step (npm run build, build:package).
  const { BUNDLE_OUTPUT } = await import('../dist/src/cli/bundle-output.js');
  const { CHUNK_WRAPPER } = await import('../dist/src/loading/runtime-loader.js');
  const { input, self, specifiers } = entries();
  rmSync(OUT_DIR, { recursive: true, force: true });
  const esm = await bundle(input, self, BUNDLE_OUTPUT, {
    format: 'esm',
    dir: join(OUT_DIR, ESM),
    entryFileNames: '[name].js',
  });
  const { [CLI.name]: _cli, ...exported } = input;
  // Entries are named after their content too: a code cache is kept per file name, and V8 checks only its length.
  const cjs = await bundle(exported, self, BUNDLE_OUTPUT, {
    format: 'cjs',
    dir: join(OUT_DIR, CJS),
    entryFileNames: '[name]-[hash].js',
    sourcemap: false,
    plugins: [cacheableImports],
    // After minifying, which would drop a function expression nothing calls.
    postBanner: CHUNK_WRAPPER.head,
    postFooter: CHUNK_WRAPPER.tail,
  });
  await bundle({ 'runtime-loader': LOADER.compiled }, {}, BUNDLE_OUTPUT, {
    format: 'esm',
    dir: OUT_DIR,
    entryFileNames: '[name].js',
    sourcemap: false,
  });
  const entryOf = (files, name) => files.find((file) => file.isEntry && file.name === name);
  for (const [name, specifier] of Object.entries(specifiers)) {
    const esmEntry = entryOf(esm, name);
    writeFileSync(
      join(OUT_DIR, `${name}.js`),
      facadeSource(specifier, entryOf(cjs, name).fileName, esmEntry.fileName, esmEntry.exports),
    );
  }
  writeFileSync(join(OUT_DIR, `${CLI.name}.js`), CLI_FACADE);
  const moduleIds = [...esm, ...cjs].flatMap((file) => file.moduleIds);
  writeFileSync(join(OUT_DIR, LICENSES_FILE), licencesText(packagesIn(moduleIds)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleRuntime();
