// `npm run bench:code-cache`: how fast the notes example would start if the runtime ran as scripts with V8's code
// cache, which Node 20 offers for scripts but not for ES modules. A measurement prototype, not the format Kiln ships:
// it builds the runtime as CommonJS chunks into a scratch `mcp-kiln` package (dist/bench/code-cache), with an entry
// that imports the packages they require and runs them through bench/code-cache-loader.ts, copies the example beside
// it, starts it once per transport to write the caches, then times spawn → first tools/call against the bare SDK and
// the shipped ES module build, with Kiln's default settings (the loader writes each cache in the V8 flag state its
// chunk is read in; MCP_V8_PRETENURING=on for both Kiln builds leaves V8's flags alone, for comparison).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ColdTarget, coldTargets, measureColdStart } from './cold-start.js';
import { coldSettingsFromEnv, renderColdTable } from './cold-start-report.js';

type BundleScript = typeof import('../scripts/bundle-runtime.mjs');

const dist = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const scratch = dist('./code-cache');
const packageDir = join(scratch, 'node_modules', 'mcp-kiln');
const chunksDir = join(packageDir, 'cjs');

const { bundleRuntime } = (await import(pathToFileURL(dist('../../scripts/bundle-runtime.mjs')).href)) as BundleScript;
await bundleRuntime({ format: 'cjs', outDir: chunksDir });
writeFileSync(
  join(packageDir, 'package.json'),
  JSON.stringify({ name: 'mcp-kiln', type: 'module', exports: './index.js' }),
);
writeFileSync(join(packageDir, 'index.js'), await entrySource());
cpSync(dist('../examples/notes'), join(scratch, 'notes'), { recursive: true });
// A package scope of its own, so `mcp-kiln` in the copied example is the scratch package, not this repository's own
// name (which Node would resolve to dist/pkg first).
writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'kiln-code-cache-bench', type: 'module' }));

// Kiln's rows with MCP_V8_PRETENURING as given (Kiln's default, off, unless set), each beside its code-cached twin.
const pretenuring = process.env.MCP_V8_PRETENURING ?? 'off';
const targets = coldTargets({ bundled: false }).flatMap((target): ColdTarget[] => {
  if (target.server === 'bare SDK on Fastify') return [];
  if (target.server !== 'Kiln notes') return [target];
  const kiln = { ...target, env: { ...target.env, MCP_V8_PRETENURING: pretenuring } };
  return [kiln, { ...kiln, server: 'Kiln notes, code cache', entry: join(scratch, 'notes', 'main.js') }];
});
const cached = targets.filter((target) => target.server === 'Kiln notes, code cache');
const progress = (line: string) => process.stdout.write(`${line}\n`);
// One run per transport writes the caches when the server exits (stdio: the client closes; HTTP: SIGTERM).
await measureColdStart(
  { runs: 1, loadS: 1, concurrency: 1 },
  cached.map((target) => ({ ...target, env: { ...target.env, KILN_CODE_CACHE_WRITE: '1' } })),
  progress,
);
const settings = coldSettingsFromEnv({ BENCH_COLD_RUNS: '11', BENCH_COLD_LOAD: '5', ...process.env });
const records = await measureColdStart(settings, targets, progress);
process.stdout.write(
  `\n${renderColdTable(records, settings)}\n\nBoth Kiln rows ran with MCP_V8_PRETENURING=${pretenuring}; the code cache row is a prototype.\n`,
);

/** The scratch package's entry: the packages the chunks require, imported as ES modules, and the runtime's exports. */
async function entrySource(): Promise<string> {
  const source = (file: string) => readFileSync(join(chunksDir, file), 'utf8');
  // The chunks a file requires as it loads (a lazy one is required inside `Promise.resolve().then(() => ...)`).
  const staticClosure = (file: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const match of source(file).matchAll(/(then\(\(\)=>)?require\("(\.{1,2}\/[^"]+)"\)/g)) {
      if (!match[1]) staticClosure(join(dirname(file), match[2]!), seen);
    }
    return seen;
  };
  const packagesOf = (files: Iterable<string>) =>
    new Set(
      [...files].flatMap((file) =>
        [...source(file).matchAll(/require\("([^"./][^"]*)"\)/g)]
          .map((match) => match[1]!)
          .filter((id) => !isBuiltin(id)),
      ),
    );
  const always = packagesOf(staticClosure('index.js'));
  // What only the HTTP host needs loads only for an HTTP server, as it would from the ES module build. (The auth and
  // Redis entries are left out: the notes example uses neither.)
  const http = [...packagesOf(staticClosure('http.js'))].filter((id) => !always.has(id));
  const names = Object.keys(await import(pathToFileURL(dist('../pkg/index.js')).href));
  const loader = pathToFileURL(dist('./code-cache-loader.js')).href;
  return [
    `import { loadRuntime } from ${JSON.stringify(loader)};`,
    ...[...always].map((id, i) => `import * as p${i} from ${JSON.stringify(id)};`),
    `const always = { ${[...always].map((id, i) => `${JSON.stringify(id)}: p${i}`).join(', ')} };`,
    "const http = process.env.MCP_TRANSPORT_TYPE === 'http'",
    `  ? { ${http.map((id) => `${JSON.stringify(id)}: await import(${JSON.stringify(id)})`).join(', ')} }`,
    '  : {};',
    "const runtime = loadRuntime(new URL('./cjs/index.js', import.meta.url).pathname, { ...always, ...http });",
    `export const { ${names.join(', ')} } = runtime;`,
    '',
  ].join('\n');
}
