// The runtime loader in real processes (src/loading/runtime-loader.ts): the notes example's first start writes a code
// cache for every chunk it ran and the next start compiles each from it, over stdio and over HTTP; the caches are
// written under the V8 flags their chunks compiled under, though the app has turned V8's pretenuring off by the time
// the process exits; a damaged cache is rejected, the server answers all the same and the next exit writes a good
// one; a stack frame names the line and column of the chunk's file, read from the cache or not; a cache folder others
// could write to is not used; a bad MCP_CODE_CACHE stops the import with what it accepts;
// and the ES module build runs instead where it should (MCP_CODE_CACHE=off, source maps on).
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CHUNKS_RUN, FORMAT } from '../../src/loading/runtime-loader.js';
import { startKilnProcess } from '../support/kiln-process.js';
import { REPO } from '../support/packed-kiln.js';
import { NOTES_SERVER } from './helpers/built-servers.js';
import { connectServer } from './helpers/connected-server.js';
import { ERAS } from './helpers/eras.js';
import { structured } from './helpers/tool-results.js';

const execNode = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'kiln-code-cache-'));
const report = join(scratch, 'report.json');
// Writes what the runtime loader chose and ran when the process exits (registered before the loader's own listener).
const preload = join(scratch, 'report.mjs');
writeFileSync(
  preload,
  `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(${JSON.stringify(report)}, JSON.stringify({
  format: globalThis[Symbol.for(${JSON.stringify(FORMAT.description)})],
  chunks: globalThis[Symbol.for(${JSON.stringify(CHUNKS_RUN.description)})] ?? [],
})));
`,
);
let cacheDir = '';
beforeEach(() => {
  cacheDir = mkdtempSync(join(scratch, 'cache-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Report {
  readonly format: 'cjs' | 'esm';
  readonly chunks: readonly { readonly path: string; readonly cache: string }[];
}
const readReport = () => JSON.parse(readFileSync(report, 'utf8')) as Report;
/** Each chunk's file name (without its hash) → what became of its cache. */
const outcomes = ({ chunks }: Report) =>
  Object.fromEntries(chunks.map(({ path, cache }) => [path.replace(/^.*\/dist\/pkg\/cjs\//, ''), cache]));

const env = (extra: Record<string, string> = {}) => ({
  MCP_CODE_CACHE_DIR: cacheDir,
  NODE_OPTIONS: `--import=${preload}`,
  MCP_LOG_LEVEL: 'error',
  ...extra,
});

async function createOverStdio(extra: Record<string, string> = {}): Promise<Report> {
  const server = await connectServer(NOTES_SERVER, ERAS[0]!, env({ MCP_TRANSPORT_TYPE: 'stdio', ...extra }));
  try {
    const result = await server.client.callTool({
      name: 'notes_create_note',
      arguments: { title: 'Cached', body: 'From the code cache.', tags: [] },
    });
    expect(structured(result)).toMatchObject({ title: 'Cached' });
  } finally {
    await server.close();
  }
  // The client closed stdin: the server shuts down and writes the report, then any cache, as it exits.
  await expect.poll(() => readdirSync(scratch).includes('report.json'), { timeout: 5_000 }).toBe(true);
  await expect.poll(() => (readReport().format === 'esm' ? true : cachesWritten()), { timeout: 5_000 }).toBe(true);
  const written = readReport();
  rmSync(report);
  return written;
}

/** Whether every chunk the last run compiled without a usable cache has one now. */
function cachesWritten(): boolean {
  const { chunks } = readReport();
  const files = readdirSync(cacheDir);
  return chunks.every(({ path, cache }) => {
    // A hit has its file already; with no folder to trust ('off') there is none to write.
    if (cache === 'hit' || cache === 'off') return true;
    const name = path.replace(/^.*\//, '').replace(/\.js$/, '');
    return files.some((file) => file.startsWith(`${name}.`) && file.endsWith('.cache'));
  });
}

async function createOverHttp(): Promise<Report> {
  const server = await startKilnProcess(NOTES_SERVER, env());
  try {
    const client = new Client({ name: 'code-cache', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.endpoint)));
    const result = await client.callTool({
      name: 'notes_create_note',
      arguments: { title: 'Over HTTP', body: 'From the code cache.', tags: [] },
    });
    expect(structured(result)).toMatchObject({ title: 'Over HTTP' });
    await client.close();
  } finally {
    // SIGTERM: the server drains and exits, writing the report, then any cache.
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  }
  const written = readReport();
  rmSync(report);
  return written;
}

describe('the runtime code cache', () => {
  it('is written by a stdio server’s first start and read by the next', async () => {
    const first = await createOverStdio();
    expect(first.format).toBe('cjs');
    const chunks = Object.keys(outcomes(first));
    expect(chunks).toContainEqual(expect.stringMatching(/^index-[\w-]+\.js$/));
    expect(chunks).toContainEqual(expect.stringMatching(/^chunks\/create-app-[\w-]+\.js$/));
    // stdio never runs the HTTP host's chunks.
    expect(chunks.filter((chunk) => chunk.includes('http'))).toEqual([]);
    expect(new Set(Object.values(outcomes(first)))).toEqual(new Set(['missing']));
    expect(readdirSync(cacheDir).filter((file) => file.endsWith('.cache'))).toHaveLength(chunks.length);

    const second = await createOverStdio();
    expect(outcomes(second)).toEqual(Object.fromEntries(chunks.map((chunk) => [chunk, 'hit'])));
  });

  it('holds the HTTP host’s chunks too', async () => {
    const first = await createOverHttp();
    expect(first.format).toBe('cjs');
    const http = Object.keys(outcomes(first)).filter((chunk) => /(^|\/)http-/.test(chunk));
    expect(http.length).toBeGreaterThan(0);
    const second = await createOverHttp();
    // Written under the flags at exit (pretenuring off) instead of those they compiled under, V8 would reject them.
    expect(new Set(Object.values(outcomes(second)))).toEqual(new Set(['hit']));
    expect(Object.keys(outcomes(second))).toEqual(Object.keys(outcomes(first)));
  });

  it('rejects a damaged cache, serves all the same and writes a good one as it exits', async () => {
    await createOverStdio();
    const caches = readdirSync(cacheDir).filter((file) => file.endsWith('.cache'));
    const damaged = caches.find((file) => file.startsWith('create-app-'))!;
    const bytes = readFileSync(join(cacheDir, damaged));
    bytes.fill(0x5a, 16);
    writeFileSync(join(cacheDir, damaged), bytes);

    const withDamage = await createOverStdio();
    const rejected = Object.entries(outcomes(withDamage)).filter(([, cache]) => cache !== 'hit');
    expect(rejected).toEqual([[expect.stringMatching(/^chunks\/create-app-/), 'rejected']]);
    const repaired = await createOverStdio();
    expect(new Set(Object.values(outcomes(repaired)))).toEqual(new Set(['hit']));
  });

  it('numbers a stack frame in a chunk by the line and column of its file, from the cache and without', async () => {
    // A runtime function that throws (an invalid setting), called from a script importing the package entry.
    const script = [
      `import { loadConfig } from ${JSON.stringify(join(REPO, 'dist', 'pkg', 'index.js'))};`,
      `try { loadConfig({ MCP_TRANSPORT_TYPE: 'bogus' }); } catch (error) { process.stdout.write(error.stack); }`,
    ].join('\n');
    const thrownAt = async () => {
      const { stdout } = await execNode(process.execPath, ['--input-type=module', '--eval', script], {
        env: { ...process.env, ...env() },
      });
      const frame = /\((\/[^()]*\/dist\/pkg\/cjs\/[^():]+\.js):(\d+):(\d+)\)/.exec(stdout);
      expect(frame, stdout).not.toBeNull();
      const [, file, line, column] = frame!;
      const cache = outcomes(readReport())[file!.replace(/^.*\/dist\/pkg\/cjs\//, '')];
      rmSync(report);
      // The frame is the `throw new KilnBootError(...)`: V8 points at its `new`.
      const lines = readFileSync(file!, 'utf8').split('\n');
      const text = lines[Number(line) - 1]!.slice(Number(column) - 1);
      return { cache, text };
    };
    const first = await thrownAt();
    expect(first.cache).toBe('missing');
    expect(first.text).toMatch(/^new [\w$.]+\(/);
    const second = await thrownAt();
    expect(second).toEqual({ ...first, cache: 'hit' });
  });

  it('compiles as usual and writes nothing where the cache folder is not one it may trust', async () => {
    chmodSync(cacheDir, 0o777);
    const run = await createOverStdio();
    expect(run.format).toBe('cjs');
    expect(new Set(Object.values(outcomes(run)))).toEqual(new Set(['off']));
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('stops the import with the values it accepts when MCP_CODE_CACHE is neither on nor off', async () => {
    const exited = await execNode(process.execPath, [NOTES_SERVER], {
      env: { ...process.env, ...env({ MCP_TRANSPORT_TYPE: 'stdio', MCP_CODE_CACHE: 'yes' }) },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(exited.code).not.toBe(0);
    expect(exited.stderr).toContain('MCP_CODE_CACHE must be one of on, off (got "yes").');
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it.each([
    ['MCP_CODE_CACHE=off', { MCP_CODE_CACHE: 'off' }],
    ['source maps on', { NODE_OPTIONS: `--import=${preload} --enable-source-maps` }],
  ])('gives way to the ES module build with %s, writing no cache', async (_, extra) => {
    const run = await createOverStdio(extra);
    expect(run).toEqual({ format: 'esm', chunks: [] });
    expect(readdirSync(cacheDir)).toEqual([]);
  });
});
