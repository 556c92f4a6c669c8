// What a stdio server loads: the notes example over stdio answers a tools/call without ever loading the HTTP host
// (Fastify, mcp-kiln/http), the auth module (jose), Ajv (it declares zod schemas only), the SDK's skill builder (it
// declares no skill) or, with no SDK registered, OpenTelemetry's API. Each is loaded
// on use, and loading is most of a stdio server's cold start; a static import creeping back in fails here.
import { readFileSync } from 'node:fs';
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
];

/** A static import (or re-export) of jose, Ajv or Fastify, as the bundler writes one at the top of a chunk. */
const STATIC_HEAVY_IMPORT = /^(?:import|export)\b[^;]*?\bfrom\s*["'](?:jose|ajv|fastify)[/"']/m;

describe('the stdio path loads only what stdio needs', () => {
  let recorder: ModuleRecorder;

  beforeAll(async () => {
    assertBuilt(NOTES_SERVER);
    recorder = await moduleRecorder();
  });
  afterAll(() => recorder.remove());

  it.each(ERAS)(
    'answers a tools/call without Fastify, the HTTP host, auth, Ajv, skills or OpenTelemetry ($era era)',
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
      expect(loaded.some((path) => runtimeEntry('index').test(path))).toBe(true);
      expect(loaded.filter((path) => NOT_ON_STDIO.some((pattern) => pattern.test(path)))).toEqual([]);
      // The CommonJS modules it loads are its declared dependencies as npm installed them, nothing of Fastify's.
      const commonJs = commonJsFiles(loaded);
      expect(commonJs.some((path) => /\/node_modules\/pino\/pino\.js$/.test(path))).toBe(true);
      expect(commonJs.some((path) => /\/node_modules\/tsyringe\//.test(path))).toBe(true);
      // Within the runtime's own chunks: none that was loaded imports auth's packages, Ajv or Fastify statically (Ajv
      // is required inside the function that first needs it).
      const chunks = loaded.filter((url) => url.startsWith('file://') && /\/dist\/pkg\/.+\.js$/.test(url));
      const heavy = chunks.filter((url) => STATIC_HEAVY_IMPORT.test(readFileSync(fileURLToPath(url), 'utf8')));
      expect(chunks.length).toBeGreaterThan(1);
      expect(heavy).toEqual([]);
    },
  );
});
