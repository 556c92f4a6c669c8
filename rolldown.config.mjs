// The package build (`npm run build`, after tsc): Kiln's own compiled code, bundled into one ES module build
// (dist/pkg/esm) and one CommonJS build (dist/pkg/cjs), each with source maps that lead back to the TypeScript
// sources. Every third-party package and Node built-in stays an import, loaded from node_modules as the user's
// lockfile has it. The entries are package.json's exports plus the kiln command (ES modules only).
//
// - Every entry of one build is bundled in one pass, so a class, token or metadata key exists once per build,
//   whichever entry a user reaches it through. The runtime's own `mcp-kiln/...` imports (the HTTP host, auth and Redis,
//   loaded on use) point back at those entries, so they stay chunks of their own that a stdio server never reads.
// - tsc's map of each compiled file is fed to the bundler (its sources inlined), so a stack trace maps to the .ts
//   file with `--enable-source-maps`, whether or not the sources are installed.
// - The landing page's playground script is bundled from its browser sources (scripts/playground-bundle.mjs) into the
//   module the runtime imports as `virtual:kiln-playground`: its text, in the chunk loaded on a first visit.
// - The CommonJS build lives in a folder whose package.json says so, with a copy of the declarations: TypeScript reads
//   a .d.ts as CommonJS there, which is what `require('mcp-kiln')` gets.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'rolldown';
import { PLAYGROUND_MODULE, playgroundModule } from './scripts/playground-bundle.mjs';

const playground = playgroundModule();

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
export const OUT_DIR = join(dist, 'pkg');
export const ESM_DIR = join(OUT_DIR, 'esm');
export const CJS_DIR = join(OUT_DIR, 'cjs');
/** The folders of tsc's declarations that ship; the CommonJS build gets a copy of each under `types/`. */
export const DECLARATION_ROOTS = ['src', 'modules', 'decorators'];
/** The kiln command: not an export, and ES modules only (it awaits at top level). */
const CLI = { name: 'cli', compiled: 'dist/src/cli/main.js', bin: './dist/pkg/esm/cli.js' };

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * Each export's entry, named after its subpath ('.' → index, './http' → http) and compiled from the file its
 * declarations sit beside; package.json must name both builds' files, checked here so the two cannot drift.
 */
export function exportEntries() {
  const entries = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue; // ./package.json
    const name = subpath === '.' ? 'index' : subpath.slice(2);
    const types = target.import.types;
    const declaration = relative('dist', types);
    const expected = {
      import: { types, default: `./dist/pkg/esm/${name}.js` },
      require: { types: `./dist/pkg/cjs/types/${declaration}`, default: `./dist/pkg/cjs/${name}.js` },
    };
    if (JSON.stringify(target) !== JSON.stringify(expected))
      throw new Error(`package.json exports["${subpath}"] should be ${JSON.stringify(expected)}.`);
    entries.push({
      name,
      specifier: subpath === '.' ? manifest.name : `${manifest.name}/${name}`,
      compiled: join(root, types.replace(/\.d\.ts$/, '.js')),
    });
  }
  if (manifest.bin.kiln !== CLI.bin) throw new Error(`package.json bin.kiln should be ${CLI.bin}.`);
  return entries;
}

const entries = exportEntries();
const input = Object.fromEntries(entries.map((entry) => [entry.name, entry.compiled]));
/** The runtime's imports of its own package names, pointed at the compiled entries. */
const self = Object.fromEntries(entries.map((entry) => [entry.specifier, entry.compiled]));

/** Hands the bundler each compiled file with tsc's map of it, so the bundle's maps reach the .ts sources. */
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

/** Empties a build's folder before it is written, so no file of an earlier build survives in it. */
const cleanDir = (dir) => ({
  name: 'kiln-clean-dir',
  buildStart() {
    for (const entry of entries) {
      if (!existsSync(entry.compiled)) throw new Error(`${entry.compiled} is missing: run tsc before bundling.`);
    }
    rmSync(dir, { recursive: true, force: true });
  },
});

/** Marks the CommonJS folder as such and copies the declarations into it (TypeScript reads them as CommonJS there). */
const commonJsFolder = {
  name: 'kiln-commonjs-folder',
  writeBundle() {
    writeFileSync(join(CJS_DIR, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
    for (const folder of DECLARATION_ROOTS) {
      const from = join(dist, folder);
      mkdirSync(join(CJS_DIR, 'types', folder), { recursive: true });
      cpSync(from, join(CJS_DIR, 'types', folder), {
        recursive: true,
        filter: (path) => !path.endsWith('.js') && !path.endsWith('.js.map') && !path.endsWith('.tsbuildinfo'),
      });
    }
    // Folders left empty by the filter (none hold declarations only by accident) are removed.
    removeEmptyFolders(join(CJS_DIR, 'types'));
  },
};

function removeEmptyFolders(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) removeEmptyFolders(join(folder, entry.name));
  }
  if (readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
}

/** Node built-ins, third-party packages (but the runtime's own names and the playground's script) stay imports. */
const external = (id) =>
  !/^[./\0]/.test(id) && !(id in self) && id !== PLAYGROUND_MODULE && !resolve(root, id).startsWith(`${dist}/`);

const shared = {
  platform: 'node',
  resolve: { alias: self },
  external,
  // A warning (a circular chunk, an unresolved import) is a fault in the runtime's shape.
  onLog(level, log, handler) {
    if (level === 'warn') handler('error', log);
    else handler(level, log);
  },
};

const output = {
  sourcemap: true,
  chunkFileNames: 'chunks/[name]-[hash].js',
  entryFileNames: '[name].js',
  // JSDoc stays in the declarations; licence headers and the bundler's annotations stay here.
  comments: { legal: true, annotation: true, jsdoc: false },
};

export default defineConfig([
  {
    ...shared,
    input: { ...input, [CLI.name]: join(root, CLI.compiled) },
    plugins: [cleanDir(ESM_DIR), tscSourceMaps, playground],
    output: { ...output, format: 'esm', dir: ESM_DIR },
  },
  {
    ...shared,
    input,
    plugins: [cleanDir(CJS_DIR), tscSourceMaps, playground, commonJsFolder],
    // External dynamic imports become require(): an import() would load a package's ES module build beside the
    // CommonJS one the rest of this build requires (two copies of the SDK's classes).
    output: { ...output, format: 'cjs', dir: CJS_DIR, dynamicImportInCjs: false, exports: 'named' },
  },
]);
