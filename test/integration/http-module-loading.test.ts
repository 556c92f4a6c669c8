// What an open HTTP server loads: the notes example over HTTP answers a tools/call with Fastify and pino from
// node_modules, and without the auth module (jose: no MCP_AUTH_MODE), the SDK's stdio entry or, with no SDK
// registered, OpenTelemetry's API; the landing page's code loads only when a person first visits it. Loading is most
// of a server's cold start; a static import or a default that brings one of them back fails here.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, NOTES_SERVER } from './helpers/built-servers.js';
import { commonJsFiles, type ModuleRecorder, moduleRecorder, runtimeEntry } from './helpers/module-recorder.js';
import { structured } from './helpers/tool-results.js';

const NOT_ON_OPEN_HTTP = [
  /\/node_modules\/jose\//,
  runtimeEntry('auth'),
  /\/node_modules\/@opentelemetry\/api\//,
  // The SDK's stdio entry: the stdio host imports it when it starts.
  /\/node_modules\/@modelcontextprotocol\/server\/dist\/stdio\.mjs$/,
];
/** Fastify and pino as npm installed them: the runtime carries no copy of its own. */
const FROM_NODE_MODULES = [/\/node_modules\/fastify\/fastify\.js$/, /\/node_modules\/pino\/pino\.js$/];
/** The landing page's code and the playground script: loaded on the first visit to GET /, not to serve MCP. */
const LANDING_PAGE_CHUNKS = /\/dist\/pkg\/(?:esm|cjs)\/chunks\/(?:landing-page|playground-script)-[\w-]+\.js$/;

describe('the open HTTP path loads only what it needs', () => {
  let recorder: ModuleRecorder;

  beforeAll(async () => {
    assertBuilt(NOTES_SERVER);
    recorder = await moduleRecorder();
  });
  afterAll(() => recorder.remove());

  /**
   * Runs the notes example over HTTP until it has answered a tools/call (and, with `visit`, served its landing page
   * to a person), then stops it: what it loaded, as the recorder saw.
   */
  async function serveNotes(name: string, { visit }: { visit: boolean }): Promise<string[]> {
    const child = spawn(process.execPath, [NOTES_SERVER], {
      env: {
        ...process.env,
        MCP_TRANSPORT_TYPE: 'http',
        MCP_HTTP_PORT: '0',
        MCP_LOG_LEVEL: 'error',
        ...recorder.env(name),
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const endpoint = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const found = /MCP endpoint: (\S+)/.exec(stdout)?.[1];
          if (found) resolve(found);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${stdout}`)));
      });
      const client = new Client({ name: 'module-loading', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
      const result = await client.callTool({
        name: 'notes_create_note',
        arguments: { title: 'Loaded', body: 'Only what HTTP needs.', tags: [] },
      });
      expect(structured(result)).toMatchObject({ title: 'Loaded' });
      await client.close();
      if (visit) {
        const page = await fetch(new URL('/', endpoint));
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('kiln-notes');
      }
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    return recorder.loaded(name);
  }

  it('answers a tools/call with Fastify from node_modules, without auth, the stdio entry, OpenTelemetry or the landing page', async () => {
    const loaded = await serveNotes('http', { visit: false });
    // The recording works: the HTTP host's entry is there, the SDK's Node adapter beside it, and Node's own modules.
    expect(loaded.some((path) => runtimeEntry('http').test(path))).toBe(true);
    expect(loaded).toContain('node:http');
    expect(loaded.some((path) => path.includes('/node_modules/@modelcontextprotocol/node/'))).toBe(true);
    expect(loaded.filter((path) => NOT_ON_OPEN_HTTP.some((pattern) => pattern.test(path)))).toEqual([]);
    expect(loaded.filter((path) => LANDING_PAGE_CHUNKS.test(path))).toEqual([]);
    const commonJs = commonJsFiles(loaded);
    for (const pattern of FROM_NODE_MODULES) expect(commonJs.some((path) => pattern.test(path))).toBe(true);
  });

  it("loads the landing page's code when a person first visits it", async () => {
    const loaded = await serveNotes('http-visited', { visit: true });
    expect(loaded.some((path) => LANDING_PAGE_CHUNKS.test(path))).toBe(true);
  });
});
