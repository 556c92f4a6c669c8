// What a stdio server loads: the notes example over stdio answers a tools/call without ever loading the HTTP host
// (Fastify, mcp-kiln/http), the auth module (jose), Ajv (it declares zod schemas only) or, with no SDK registered,
// OpenTelemetry's API. Each is loaded on use, and
// loading is most of a stdio server's cold start; a static import creeping back in fails here. The child records
// every ES module its loader fetched and every CommonJS module in its require cache, and writes them when it exits.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, NOTES_SERVER } from './helpers/built-servers.js';
import { connectServer } from './helpers/connected-server.js';
import { ERAS } from './helpers/eras.js';
import { structured } from './helpers/tool-results.js';

const PRELOAD = `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
register(new URL('./hooks.mjs', import.meta.url));
const cache = createRequire(import.meta.url).cache;
process.on('exit', () => appendFileSync(process.env.KILN_LOADED_MODULES, Object.keys(cache).join('\\n') + '\\n--exit--\\n'));
`;
const HOOKS = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.KILN_LOADED_MODULES, url + '\\n');
  return next(url, context);
}
`;

const NOT_ON_STDIO = [
  /\/node_modules\/fastify\//,
  /\/node_modules\/@modelcontextprotocol\/fastify\//,
  /\/dist\/modules\/(http|auth)\//,
  // The bundled runtime's HTTP and auth entries, and any chunk of it that imports Fastify or jose (checked below).
  /\/dist\/pkg\/(http|auth)\.js$/,
  /\/node_modules\/jose\//,
  /\/node_modules\/ajv\//,
  // Nothing registered an OpenTelemetry SDK, so the API itself is never loaded (src/telemetry/otel-api.ts).
  /\/node_modules\/@opentelemetry\/api\//,
];

describe('the stdio path loads only what stdio needs', () => {
  let dir: string;

  beforeAll(async () => {
    assertBuilt(NOTES_SERVER);
    dir = await mkdtemp(join(tmpdir(), 'kiln-loads-'));
    await writeFile(join(dir, 'preload.mjs'), PRELOAD);
    await writeFile(join(dir, 'hooks.mjs'), HOOKS);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(ERAS)(
    'answers a tools/call without Fastify, the HTTP host, auth, Ajv or OpenTelemetry ($era era)',
    async (eraCase) => {
      const record = join(dir, `${eraCase.era}.txt`);
      const server = await connectServer(NOTES_SERVER, eraCase, {
        NODE_OPTIONS: `--import=${pathToFileURL(join(dir, 'preload.mjs')).href}`,
        KILN_LOADED_MODULES: record,
      });
      const result = await server.client.callTool({
        name: 'notes_create_note',
        arguments: { title: 'Loaded', body: 'Only what stdio needs.', tags: [] },
      });
      expect(structured(result)).toMatchObject({ title: 'Loaded' });
      await server.close();

      await expect.poll(() => readFile(record, 'utf8').catch(() => ''), { timeout: 5_000 }).toContain('--exit--');
      const loaded = (await readFile(record, 'utf8')).split('\n').filter(Boolean);
      // The recording works: ES modules (the SDK server, the app's own files) and CommonJS ones (pino) are there.
      expect(loaded.some((path) => path.includes('/@modelcontextprotocol/server/'))).toBe(true);
      expect(loaded.some((path) => path.includes('/node_modules/pino/'))).toBe(true);
      expect(loaded.some((path) => path.endsWith('/dist/pkg/index.js'))).toBe(true);
      expect(loaded.filter((path) => NOT_ON_STDIO.some((pattern) => pattern.test(path)))).toEqual([]);
      // Within the bundle: no chunk that was loaded imports the HTTP host's or auth's packages.
      const chunks = loaded.filter((url) => url.startsWith('file://') && /\/dist\/pkg\/.+\.js$/.test(url));
      const heavy = chunks.filter((path) =>
        /from "(fastify|jose|ajv)[/"]/.test(readFileSync(fileURLToPath(path), 'utf8')),
      );
      expect(chunks.length).toBeGreaterThan(1);
      expect(heavy).toEqual([]);
    },
  );
});
