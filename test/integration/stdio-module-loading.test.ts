// What a stdio server loads: the notes example over stdio answers a tools/call without ever loading the HTTP host
// (Fastify, mcp-kiln/http), the auth module (jose), Ajv (it declares zod schemas only), the SDK's skill builder (it
// declares no skill), any CommonJS module, node:assert or, with no SDK registered, OpenTelemetry's API. Each is loaded
// on use, and loading is most of a stdio server's cold start; a static import creeping back in fails here.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, NOTES_SERVER } from './helpers/built-servers.js';
import { connectServer } from './helpers/connected-server.js';
import { ERAS } from './helpers/eras.js';
import { commonJsFiles, type ModuleRecorder, moduleRecorder, runtimeEntry } from './helpers/module-recorder.js';
import { structured } from './helpers/tool-results.js';

const NOT_ON_STDIO = [
  /\/node_modules\/fastify\//,
  /\/node_modules\/@modelcontextprotocol\/fastify\//,
  /\/dist\/modules\/(http|auth)\//,
  // The bundled runtime's HTTP and auth entries, and any chunk of it that imports Fastify or jose (checked below).
  runtimeEntry('http'),
  runtimeEntry('auth'),
  /\/node_modules\/jose\//,
  /\/node_modules\/ajv\//,
  // Nothing registered an OpenTelemetry SDK, so the API itself is never loaded (src/telemetry/otel-api.ts).
  /\/node_modules\/@opentelemetry\/api\//,
  // The app declares no skill, so the SDK's skill builder is never loaded (src/definitions/compile-skills.ts).
  /\/node_modules\/@modelcontextprotocol\/server\/dist\/ext\/skills\//,
  // pino's destination requires node:assert for a check on close; the bundle loads it only if that check fails.
  /^node:assert$/,
];

describe('the stdio path loads only what stdio needs', () => {
  let recorder: ModuleRecorder;

  beforeAll(async () => {
    assertBuilt(NOTES_SERVER);
    recorder = await moduleRecorder();
  });
  afterAll(() => recorder.remove());

  it.each(ERAS)(
    'answers a tools/call without Fastify, the HTTP host, auth, Ajv, skills, CommonJS, node:assert or OpenTelemetry ($era era)',
    async (eraCase) => {
      const server = await connectServer(NOTES_SERVER, eraCase, recorder.env(eraCase.era));
      const result = await server.client.callTool({
        name: 'notes_create_note',
        arguments: { title: 'Loaded', body: 'Only what stdio needs.', tags: [] },
      });
      expect(structured(result)).toMatchObject({ title: 'Loaded' });
      await server.close();

      const loaded = await recorder.loaded(eraCase.era);
      // The recording works: the SDK server, its stdio entry, the bundled runtime and Node's own modules are there.
      expect(loaded.some((path) => path.includes('/@modelcontextprotocol/server/'))).toBe(true);
      expect(loaded.some((path) => /\/@modelcontextprotocol\/server\/dist\/stdio\.mjs$/.test(path))).toBe(true);
      expect(loaded).toContain('node:stream');
      expect(loaded.some((path) => path.endsWith('/dist/pkg/index.js'))).toBe(true);
      // By default the runtime loader runs the runtime's CommonJS build, with the code cache.
      expect(loaded.some((path) => /\/dist\/pkg\/cjs\/index-[\w-]+\.js$/.test(path))).toBe(true);
      expect(loaded.filter((path) => NOT_ON_STDIO.some((pattern) => pattern.test(path)))).toEqual([]);
      // No CommonJS module at all (the recorder lists those by path, ES modules by URL, Node's by name): the CommonJS
      // packages the runtime needs (pino, tsyringe, reflect-metadata) are compiled into its bundle, so Node 20 never
      // starts its CommonJS loader, which costs as much as the rest of pino's loading.
      expect(commonJsFiles(loaded)).toEqual([]);
      // Within the bundle: no chunk that was loaded imports auth's packages or holds the Fastify compiled into the
      // HTTP host's chunk (its source map names the files it was built from, where it has one).
      const chunks = loaded.filter((url) => url.startsWith('file://') && /\/dist\/pkg\/.+\.js$/.test(url));
      const heavy = chunks.filter((url) => {
        const path = fileURLToPath(url);
        // Entries that only re-export a chunk have no map.
        const map = `${path}.map`;
        const { sources } = existsSync(map)
          ? (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] })
          : { sources: [] };
        // The CommonJS build ships no maps: Fastify's code shows by its error codes.
        const code = readFileSync(path, 'utf8');
        return (
          /(from |require\()"(jose|ajv)[/"]/.test(code) ||
          /FST_ERR_/.test(code) ||
          sources.some((source) => source.includes('node_modules/fastify/'))
        );
      });
      expect(chunks.length).toBeGreaterThan(1);
      expect(heavy).toEqual([]);
    },
  );
});
