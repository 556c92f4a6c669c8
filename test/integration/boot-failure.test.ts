// What a person sees when a server cannot boot: the problem list first, every line of it readable, then where boot
// stopped; with --enable-source-maps each of Kiln's frames names its TypeScript source.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ephemeralPort } from '../support/redis-servers.js';
import { NOTES_SERVER } from './helpers/built-servers.js';

const FIXTURE = join(
  import.meta.dirname,
  '..',
  '..',
  'dist',
  'test',
  'integration',
  'fixtures',
  'broken-boot-fixture.js',
);

function boot(nodeFlags: readonly string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [...nodeFlags, FIXTURE],
      { env: { ...process.env, MCP_TRANSPORT_TYPE: 'stdio', MCP_LOG_LEVEL: 'error' }, timeout: 20_000 },
      (_error, stdout, stderr) => done({ code: child.exitCode, stderr, stdout }),
    );
  });
}

/** The `at …` lines of a report that point into Kiln's own code (its sources or its built package). */
const kilnFrames = (stderr: string) =>
  stderr.split('\n').filter((line) => /^\s+at /.test(line) && /\/(src|modules|decorators|dist\/pkg)\//.test(line));

describe('a server that cannot boot', () => {
  it('prints its problem list first, then the warnings and where boot stopped, and exits 1', async () => {
    const { code, stderr, stdout } = await boot([]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'broken-fixture could not start:',
      '  - Tool silent_tool (SilentTool): description is empty; say when and how to use it. [description-empty]',
      "  - PlainClass is listed in a module's tools but has no @Tool() decorator.",
    ]);
    expect(lines[3]).toBe('Warnings from the same check:');
    expect(lines[4]).toMatch(/^ {2}- Tool store_list_items \(CappedListTool\): takes a cap-like input/);
    expect(lines[5]).toBe('Boot stopped:');
    // No source line of a bundle, no dump of the error's fields: every line is one a person reads.
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(300);
    expect(stderr).not.toContain('problems: [');
    expect(kilnFrames(stderr).length).toBeGreaterThan(0);
  });

  it('names the TypeScript source of every Kiln frame with --enable-source-maps', async () => {
    const { code, stderr } = await boot(['--enable-source-maps']);
    expect(code).toBe(1);
    expect(stderr.startsWith('broken-fixture could not start:\n')).toBe(true);
    const frames = kilnFrames(stderr);
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) expect(frame).toMatch(/\/(src|modules|decorators)\/[\w/.-]+\.ts:\d+:\d+\)?$/);
    expect(frames.some((frame) => frame.includes('/src/app/compile-app.ts:'))).toBe(true);
  });
});

describe('a server whose Redis cannot be reached at start', () => {
  it('names Redis and what to do in its problem list, and exits 1 instead of crashing on a client error', async () => {
    const port = await ephemeralPort();
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = execFile(
        process.execPath,
        [NOTES_SERVER],
        {
          env: {
            ...process.env,
            MCP_TRANSPORT_TYPE: 'http',
            MCP_HTTP_PORT: '0',
            STORAGE_PROVIDER_TYPE: 'redis',
            REDIS_URL: `redis://127.0.0.1:${port}`,
            MCP_LOG_LEVEL: 'emergency',
          },
          timeout: 30_000,
        },
        (_error, _stdout, stderr) => done({ code: child.exitCode, stderr }),
      );
    });
    expect(code).toBe(1);
    const [first, second] = stderr.split('\n');
    expect(first).toMatch(/could not start:$/);
    expect(second).toMatch(/^ {2}- Redis could not be reached to start the session channels .* check REDIS_URL/);
    expect(stderr).not.toMatch(/^\S*MaxRetriesPerRequestError/m);
  });
});
