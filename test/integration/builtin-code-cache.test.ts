// Node's own modules load from the code cache in the node binary while a server boots. V8 checks a code cache against
// the flags in force, and the runtime holds V8's young generation with one (src/loading/young-generation.ts) from its
// import until its host has started: every built-in loaded in between compiled from source. Over HTTP that was 53 of
// them (node:http, node:http2, undici and the rest), about 7% of the instructions from spawn to the first answer. The
// runtime loader now loads them outside the hold (src/loading/builtins-loaded-by.ts); a built-in that a new import
// brings in under the hold shows here. Node reports what it compiled without its cache only with --expose-internals.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, NOTES_SERVER, REPO_ROOT } from './helpers/built-servers.js';
import { structured } from './helpers/tool-results.js';

/**
 * Loaded under the hold and compiled from source, each a few lines: import.meta's initializer (the SDK's ES modules
 * read import.meta) and process.report's (read by a package as it loads). Neither can be required by name.
 */
const TINY = ['internal/modules/esm/initialize_import_meta', 'internal/process/report'];

const PROBE = `
const { writeFileSync } = require('node:fs');
const { internalBinding } = require('internal/test/binding');
process.on('exit', () => {
  const usage = internalBinding('builtins').getCacheUsage();
  writeFileSync(process.env.KILN_BUILTIN_REPORT, JSON.stringify({
    withoutCache: [...usage.compiledWithoutCache],
    withCache: [...usage.compiledWithCache],
  }));
});
`;

interface CacheUsage {
  readonly withoutCache: readonly string[];
  readonly withCache: readonly string[];
}

describe("Node's built-ins load from the node binary's code cache while a server boots", () => {
  let dir: string;
  let probe: string;

  beforeAll(async () => {
    assertBuilt(NOTES_SERVER);
    dir = await mkdtemp(join(tmpdir(), 'kiln-builtins-'));
    probe = join(dir, 'probe.cjs');
    await writeFile(probe, PROBE);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const nodeArgs = (v8Flags: readonly string[]) => [
    '--expose-internals',
    '--no-warnings',
    ...v8Flags,
    '--require',
    probe,
    NOTES_SERVER,
  ];
  const env = (name: string) => ({
    KILN_BUILTIN_REPORT: join(dir, `${name}.json`),
    MCP_CODE_CACHE_DIR: join(dir, `code-cache-${name}`),
    MCP_LOG_LEVEL: 'error',
  });
  const report = async (name: string) => JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8')) as CacheUsage;

  /** Serves the notes example over HTTP until it answered a tools/call, then stops it; what Node compiled, and how. */
  async function overHttp(name: string, v8Flags: readonly string[] = []): Promise<CacheUsage> {
    const child = spawn(process.execPath, nodeArgs(v8Flags), {
      cwd: REPO_ROOT,
      env: { ...process.env, MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', ...env(name) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await callNotes(new StreamableHTTPClientTransport(new URL(await endpointOf(child))));
      child.kill('SIGTERM');
      await once(child, 'exit');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    return report(name);
  }

  it('over HTTP, the built-ins the host and its packages load (node:http, node:http2, undici, node:cluster)', async () => {
    const usage = await overHttp('http');
    // They were loaded, from the cache.
    expect(usage.withCache).toEqual(
      expect.arrayContaining(['http', 'http2', 'tls', 'zlib', 'internal/deps/undici/undici', 'cluster']),
    );
    expect(usage.withoutCache.filter((id) => !TINY.includes(id))).toEqual([]);
  });

  it('over stdio', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: nodeArgs([]),
      cwd: REPO_ROOT,
      env: { ...getDefaultEnvironment(), ...env('stdio') },
      stderr: 'inherit',
    });
    await callNotes(transport);
    await expect.poll(() => report('stdio').catch(() => undefined), { timeout: 10_000 }).toBeDefined();
    const usage = await report('stdio');
    expect(usage.withCache).toContain('fs/promises');
    expect(usage.withoutCache.filter((id) => !TINY.includes(id))).toEqual([]);
  });

  it('reports a built-in compiled from source when the flags differ from the ones the cache was built under', async () => {
    // The check above can fail: with a V8 flag on the command line, none of the cache matches.
    const usage = await overHttp('flagged', ['--no-lazy-feedback-allocation']);
    expect(usage.withoutCache).toEqual(expect.arrayContaining(['http', 'http2', 'internal/deps/undici/undici']));
  });
});

async function callNotes(transport: StreamableHTTPClientTransport | StdioClientTransport): Promise<void> {
  const client = new Client({ name: 'kiln-builtins', version: '1.0.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({
      name: 'notes_create_note',
      arguments: { title: 'Cached', body: 'From the node binary.', tags: [] },
    });
    expect(structured(result)).toMatchObject({ title: 'Cached' });
  } finally {
    await client.close();
  }
}

async function endpointOf(child: ChildProcess): Promise<string> {
  let stdout = '';
  for await (const chunk of child.stdout!) {
    stdout += String(chunk);
    const found = /MCP endpoint: (\S+)/.exec(stdout)?.[1];
    if (found) return found;
  }
  throw new Error(`The server exited before it printed its endpoint:\n${stdout}`);
}
