// Bundles the compiled runtime (tsc's output under dist/) into dist/pkg: one file per package.json export and one for
// the kiln command, plus the chunks they share, so `import 'mcp-kiln'` reads a handful of files instead of ~170. On
// Node 20 resolving and reading module files is most of a server's cold start (see the README's performance section).
//
// - Every entry is built in one pass: a class, token or metadata key exists once, whichever entry a user reaches it
//   through. The runtime's own `mcp-kiln/...` imports (the HTTP host, auth and Redis, loaded on use) are pointed
//   back at those same entries, so they stay separate chunks that stdio never loads.
// - Only Kiln's code is bundled. Every package under node_modules stays an import: users share one copy of the SDK,
//   zod and the rest with their own code, and npm's dedupe keeps working.
// - Each input's tsc source map is fed to the bundler, so a stack trace maps back to the TypeScript source.
//
// The entry for an export is named after its subpath ('.' → index, './http' → http) and compiled from the file its
// `types` names (.d.ts → .js); package.json must point `import` at dist/pkg/<name>.js, which is checked here.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
export const OUT_DIR = join(dist, 'pkg');
/** The kiln command is not an export; its compiled entry is named here. */
const CLI = { name: 'cli', compiled: './dist/src/cli/main.js', bin: './dist/pkg/cli.js' };

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

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
  rmSync(OUT_DIR, { recursive: true, force: true });
  const warnings = [];
  await build({
    input,
    platform: 'node',
    resolve: { alias: self },
    // Bare specifiers other than mcp-kiln's own are packages from node_modules (or node: built-ins): kept as imports.
    external: (id) => !(id.startsWith('.') || id.startsWith('/') || id.startsWith('\0') || id in self),
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
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleRuntime();
