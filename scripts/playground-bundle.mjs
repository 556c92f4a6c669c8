// The landing page's playground script: the typed browser sources in modules/http/landing-page/playground/ bundled
// into one script (an IIFE: no imports at run time, nothing from a CDN) that the HTTP host serves as /playground.js.
// The runtime imports it as the module `virtual:kiln-playground` (modules/http/landing-page/playground-script.ts); the
// plugin below supplies that module to the package build (rolldown.config.mjs) and to the tests (vitest.config.ts), so
// the served text is always the bundle of the sources at hand and nothing generated sits in the source tree.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PLAYGROUND_DIR = join(root, 'modules', 'http', 'landing-page', 'playground');
const ENTRY = join(PLAYGROUND_DIR, 'main.ts');
export const PLAYGROUND_MODULE = 'virtual:kiln-playground';
/** Where the module is said to come from: the entry's folder, so its source map names the TypeScript sources. */
const RESOLVED_ID = join(PLAYGROUND_DIR, 'playground-bundle.js');

/** The playground's browser code as one script, and the files it was built from. */
export async function bundlePlayground() {
  const bundle = await rolldown({
    input: ENTRY,
    cwd: root,
    platform: 'browser',
    tsconfig: join(PLAYGROUND_DIR, 'tsconfig.json'),
    // A warning (an unresolved import, a circle) is a fault in the playground's shape, as in the package build.
    onLog(level, log, handler) {
      handler(level === 'warn' ? 'error' : level, log);
    },
  });
  try {
    const { output } = await bundle.generate({
      format: 'iife',
      // The sources are modules, written for strict mode: the script keeps it.
      strict: true,
      banner: "// The mcp-kiln playground: calls this server's MCP endpoint from the landing page.",
      comments: { legal: true, annotation: false, jsdoc: false },
    });
    return { code: output[0].code, files: await bundle.watchFiles };
  } finally {
    await bundle.close();
  }
}

/**
 * The plugin (Rolldown's and Vite's) that resolves `virtual:kiln-playground` to a module exporting the bundled text
 * as PLAYGROUND_BUNDLE. Its source map names the entry's TypeScript, inlined, as every other module's map does.
 */
export function playgroundModule() {
  // One bundle per plugin: the package build's ES module and CommonJS passes share it; an edit drops it (watch mode).
  let bundled;
  return {
    name: 'kiln-playground-module',
    resolveId(id) {
      return id === PLAYGROUND_MODULE ? RESOLVED_ID : null;
    },
    watchChange() {
      bundled = undefined;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return null;
      bundled ??= bundlePlayground();
      const { code, files } = await bundled;
      for (const file of files) this.addWatchFile(file);
      const map = {
        version: 3,
        sources: ['main.ts'],
        sourcesContent: [readFileSync(ENTRY, 'utf8')],
        names: [],
        mappings: 'AAAA',
      };
      return { code: `export const PLAYGROUND_BUNDLE = ${JSON.stringify(code)};\n`, map };
    },
  };
}
