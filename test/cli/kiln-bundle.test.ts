// `kiln bundle` on the notes example: the bundle, written outside the repository (so nothing resolves from its
// node_modules), serves over stdio and, through its lazily loaded HTTP chunk, over HTTP, to the official client.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectServer } from '../integration/helpers/connected-server.js';
import { ERAS } from '../integration/helpers/eras.js';
import { structured } from '../integration/helpers/tool-results.js';
import { REPO, runKiln } from './run-kiln.js';

const scratch = mkdtempSync(join(tmpdir(), 'kiln-bundle-'));
const bundled = join(scratch, 'main.mjs');
const children: ChildProcess[] = [];
const BEYOND_LATIN1 = /[\u0100-\u{10ffff}]/u;

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

describe('kiln bundle', () => {
  beforeAll(async () => {
    const run = await runKiln(['bundle', 'dist/examples/notes/main.js', '--out-dir', scratch]);
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(run.stdout).toContain('main.mjs (');
    expect(run.stdout).toMatch(/Start it with: node \S*main\.mjs\n/);
  }, 60_000);

  it('writes nothing beyond Latin-1, so V8 holds every source in it (the SDK and zod too) at one byte per character', () => {
    const chunks = readdirSync(scratch).filter((file) => file.endsWith('.mjs'));
    expect(chunks.length).toBeGreaterThan(1);
    // V8 keeps a source as one byte per character while every character is Latin-1; one more makes it two.
    expect(chunks.filter((file) => BEYOND_LATIN1.test(readFileSync(join(scratch, file), 'utf8')))).toEqual([]);
  });

  it("bundles the runtime's ES module build (the import condition of package.json), not its CommonJS build", () => {
    const chunks = readdirSync(scratch).filter((file) => file.endsWith('.mjs'));
    const code = chunks.map((file) => readFileSync(join(scratch, file), 'utf8'));
    // The runtime is in, by a name of its own code; and its third-party packages with it (the user chose one file).
    expect(code.some((source) => /["'`]KilnBootError["'`]/.test(source))).toBe(true);
    expect(code.some((source) => source.includes('fastify'))).toBe(true);
    expect(code.filter((source) => source.includes('dist/pkg/cjs'))).toEqual([]);
  });

  it.each(ERAS)('serves the notes tools over stdio from the bundle ($era era)', async (eraCase) => {
    const server = await connectServer(bundled, eraCase, { MCP_TRANSPORT_TYPE: 'stdio' });
    try {
      const { tools } = await server.client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'notes_create_note',
        'notes_delete_note',
        'notes_get_note',
        'notes_search_notes',
      ]);
      const result = await server.client.callTool({
        name: 'notes_create_note',
        arguments: { title: 'Bundled', body: 'From one file.', tags: '["bundle"]' },
      });
      expect(structured(result)).toMatchObject({ title: 'Bundled', tags: ['bundle'] });
    } finally {
      await server.close();
    }
  });

  it('serves over HTTP from the bundle, loading the HTTP host chunk on start', async () => {
    const child = spawn(process.execPath, [bundled], {
      cwd: scratch,
      env: { PATH: process.env.PATH, MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const endpoint = await new Promise<string>((found, failed) => {
      let text = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        const match = /MCP endpoint: (\S+)/.exec(text);
        if (match) found(match[1]!);
      });
      child.once('exit', (code) => failed(new Error(`the bundle exited with code ${code}: ${text}`)));
    });
    const client = new Client({ name: 'kiln-bundle-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
    const result = await client.callTool({
      name: 'notes_create_note',
      arguments: { title: 'Over HTTP', body: 'From the bundle.', tags: [] },
    });
    expect(structured(result)).toMatchObject({ title: 'Over HTTP' });
    await client.close();
    child.kill('SIGTERM');
  });

  it('answers exit 2 for an entry that does not exist', async () => {
    const run = await runKiln(['bundle', 'dist/nothing-here.js', '--out-dir', scratch]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('does not exist: build the project first.');
    expect(existsSync(join(REPO, 'bundle'))).toBe(false);
  });
});
