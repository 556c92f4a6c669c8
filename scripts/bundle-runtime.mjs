// Bundles the compiled runtime (tsc's output under dist/) into dist/pkg: one file per package.json export and one for
// the kiln command, plus the chunks they share, so `import 'mcp-kiln'` reads a handful of files instead of ~170. On
// Node 20 resolving and reading module files is most of a server's cold start (see the README's performance section).
//
// - Every entry is built in one pass: a class, token or metadata key exists once, whichever entry a user reaches it
//   through. The runtime's own `mcp-kiln/...` imports (the HTTP host, auth and Redis, loaded on use) are pointed
//   back at those same entries, so they stay separate chunks that stdio never loads.
// - Kiln's code is bundled, and of node_modules only the packages in INLINED (below). Every other package stays an
//   import: users share one copy of the SDK, zod, OpenTelemetry's API and the rest with their own code, and npm's
//   dedupe keeps working.
// - Each input's tsc source map is fed to the bundler, so a stack trace maps back to the TypeScript source.
//
// The entry for an export is named after its subpath ('.' → index, './http' → http) and compiled from the file its
// `types` names (.d.ts → .js); package.json must point `import` at dist/pkg/<name>.js, which is checked here.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
export const OUT_DIR = join(dist, 'pkg');
/** The kiln command is not an export; its compiled entry is named here. */
const CLI = { name: 'cli', compiled: './dist/src/cli/main.js', bin: './dist/pkg/cli.js' };

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * Packages compiled into the bundle instead of imported. Each is private to the runtime (no module of its reaches a
 * user: at most an object it made, such as the app's pino logger, which works the same whichever copy made it), keeps
 * no state another copy would have to share (reflect-metadata keeps its metadata in a registry every copy finds
 * through a global symbol), and is slow to load from node_modules: all are CommonJS, and on Node 20 a stdio server that
 * loads none pays neither Node's CommonJS loader nor a file per module (tsyringe alone is 34 files, pino and what it
 * requires 31). `from` names the package whose node_modules holds it (the root's by default), `module` the file to
 * compile in place of its main entry (an ES module build), `licence` its licence file ('LICENSE' by default); the
 * licences ship beside the bundle in LICENSES_FILE. tslib is tsyringe's helper library; the rest of the list is pino's
 * own dependencies.
 */
export const INLINED = {
  tsyringe: { module: 'dist/esm2015/index.js' },
  tslib: { from: 'tsyringe', module: 'tslib.es6.js', licence: 'LICENSE.txt' },
  'reflect-metadata': {},
  pino: {},
  '@pinojs/redact': { from: 'pino' },
  'atomic-sleep': { from: 'pino' },
  'on-exit-leak-free': { from: 'pino' },
  'pino-std-serializers': { from: 'pino' },
  'quick-format-unescaped': { from: 'pino' },
  'safe-stable-stringify': { from: 'pino' },
  'sonic-boom': { from: 'pino' },
};
export const LICENSES_FILE = 'THIRD_PARTY_LICENSES.md';

/**
 * Modules the bundled packages require that the runtime never runs, compiled in as a stub that says so. pino requires
 * thread-stream for pino.transport() (log targets in a worker thread); Kiln's logger writes to a destination stream
 * and never asks for a transport, and no one else can reach the bundled pino to ask.
 */
const STUBS = {
  'thread-stream': `module.exports = function ThreadStream() {
  throw new Error("mcp-kiln's bundled pino has no transports (thread-stream): pass the logger a destination stream.");
};`,
};

/** The folder of package `name` as Node would find it from `start`: the nearest node_modules/<name> above it. */
function packageDir(name, start) {
  for (let folder = start; ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(folder) === folder) throw new Error(`${name} is not installed (looked above ${start}).`);
  }
}

function inlinedPackages() {
  const dirs = {};
  for (const [name, { from }] of Object.entries(INLINED)) dirs[name] = packageDir(name, from ? dirs[from] : root);
  return Object.entries(INLINED).map(([name, { module, licence = 'LICENSE' }]) => {
    const dir = dirs[name];
    const { version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return {
      name,
      version,
      license,
      module: module && join(dir, module),
      licenceText: readFileSync(join(dir, licence), 'utf8'),
    };
  });
}

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `pino/file` → `pino`. */
export const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Compiles each of STUBS in place of the module it names. */
const stubs = {
  name: 'kiln-stubs',
  resolveId: (id) => (id in STUBS ? `\0stub:${id}` : null),
  load: (id) => (id.startsWith('\0stub:') ? STUBS[id.slice('\0stub:'.length)] : null),
};

function licencesText(packages) {
  const sections = packages.map(
    (pkg) => `## ${pkg.name} ${pkg.version} (${pkg.license})\n\n\`\`\`\n${pkg.licenceText.trim()}\n\`\`\`\n`,
  );
  return `# Third-party code in this bundle\n\nThe files in this folder include the following packages, compiled in by scripts/bundle-runtime.mjs.\n\n${sections.join('\n')}`;
}

function entries() {
  const found = { [CLI.name]: CLI.compiled };
  const self = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue; // ./package.json
    const name = subpath === '.' ? 'index' : subpath.slice(2);
    const compiled = target.types.replace(/\.d\.ts$/, '.js');
    const expected = `./dist/pkg/${name}.js`;
    if (target.import !== expected) {
      throw new Error(`package.json exports["${subpath}"].import is ${target.import}; the bundle writes ${expected}.`);
    }
    found[name] = compiled;
    self[subpath === '.' ? manifest.name : `${manifest.name}/${name}`] = join(root, compiled);
  }
  if (manifest.bin.kiln !== CLI.bin)
    throw new Error(`package.json bin.kiln is ${manifest.bin.kiln}; the bundle writes ${CLI.bin}.`);
  for (const compiled of Object.values(found)) {
    if (!existsSync(join(root, compiled))) throw new Error(`${compiled} is missing: run tsc before bundling.`);
  }
  return { input: Object.fromEntries(Object.entries(found).map(([name, path]) => [name, join(root, path)])), self };
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

export async function bundleRuntime() {
  const { input, self } = entries();
  const inlined = inlinedPackages();
  const alias = {
    ...self,
    ...Object.fromEntries(inlined.flatMap((pkg) => (pkg.module ? [[pkg.name, pkg.module]] : []))),
  };
  rmSync(OUT_DIR, { recursive: true, force: true });
  const warnings = [];
  await build({
    input,
    platform: 'node',
    resolve: { alias },
    // Bare specifiers other than mcp-kiln's own, INLINED and STUBS are packages from node_modules (or node:
    // built-ins): kept as imports.
    external: (id) =>
      !(
        id.startsWith('.') ||
        id.startsWith('/') ||
        id.startsWith('\0') ||
        id in alias ||
        id in STUBS ||
        packageOf(id) in INLINED
      ),
    plugins: [stubs, tscSourceMaps],
    onLog: (level, log) => {
      if (level === 'warn') warnings.push(log.message);
    },
    output: {
      dir: OUT_DIR,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      sourcemap: true,
      // One character beyond Latin-1 anywhere makes V8 hold the file's whole source at two bytes per character:
      // escaped to ASCII (legal comments keep theirs, Latin-1 at worst), the sources take half the memory. JSDoc is for editors (the .d.ts files keep it); licence headers
      // and the bundler's annotations stay.
      charset: 'ascii',
      comments: { legal: true, annotation: true, jsdoc: false },
    },
  });
  // A warning here (a circular chunk, an unresolved import) is a fault in the runtime's shape: fail the build.
  if (warnings.length > 0) throw new Error(`Bundling the runtime warned:\n${warnings.join('\n')}`);
  writeFileSync(join(OUT_DIR, LICENSES_FILE), licencesText(inlined));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleRuntime();
