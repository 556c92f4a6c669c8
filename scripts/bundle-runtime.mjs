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
 * Packages compiled into the bundle instead of imported. Each is private to the runtime (no type or value of its
 * reaches a user), keeps no state another copy of it would have to share, and is slow to load from node_modules:
 * tsyringe's CommonJS build is 34 files, about a tenth of a stdio server's cold start. Each maps to its ES module
 * build; their licences ship beside the bundle in LICENSES_FILE. tslib is tsyringe's own helper library.
 */
export const INLINED = {
  tsyringe: { from: root, module: 'dist/esm2015/index.js', licence: 'LICENSE' },
  tslib: { from: 'tsyringe', module: 'tslib.es6.js', licence: 'LICENSE.txt' },
};
export const LICENSES_FILE = 'THIRD_PARTY_LICENSES.md';

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
  for (const [name, { from }] of Object.entries(INLINED))
    dirs[name] = packageDir(name, from === root ? root : dirs[from]);
  return Object.entries(INLINED).map(([name, { module, licence }]) => {
    const dir = dirs[name];
    const { version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return { name, version, license, module: join(dir, module), licenceText: readFileSync(join(dir, licence), 'utf8') };
  });
}

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
  const alias = { ...self, ...Object.fromEntries(inlined.map((pkg) => [pkg.name, pkg.module])) };
  rmSync(OUT_DIR, { recursive: true, force: true });
  const warnings = [];
  await build({
    input,
    platform: 'node',
    resolve: { alias },
    // Bare specifiers other than mcp-kiln's own and INLINED are packages from node_modules (or node: built-ins):
    // kept as imports.
    external: (id) => !(id.startsWith('.') || id.startsWith('/') || id.startsWith('\0') || id in alias),
    plugins: [tscSourceMaps],
    onLog: (level, log) => {
      if (level === 'warn') warnings.push(log.message);
    },
    output: {
      dir: OUT_DIR,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      sourcemap: true,
    },
  });
  // A warning here (a circular chunk, an unresolved import) is a fault in the runtime's shape: fail the build.
  if (warnings.length > 0) throw new Error(`Bundling the runtime warned:\n${warnings.join('\n')}`);
  writeFileSync(join(OUT_DIR, LICENSES_FILE), licencesText(inlined));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleRuntime();
