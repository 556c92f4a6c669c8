// The official MCP Inspector CLI (@modelcontextprotocol/inspector) calling the built notes example over stdio on a
// 2025 connection, once with the stdio direct path on (MCP_STDIO_FAST_PATH=on, the default) and once with it off: a
// real client sees the same results, tool errors, resource errors and prompts either way.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, NOTES_SERVER } from './helpers/built-servers.js';

const INSPECTOR = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
// The Inspector keeps its catalogue and OAuth store under HOME; give it one of its own.
const home = mkdtempSync(join(tmpdir(), 'kiln-inspector-stdio-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
beforeAll(() => assertBuilt(NOTES_SERVER));

interface Outcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `inspector --cli` against the notes server on stdio; Kiln's generated request ids are normalised. */
function inspect(fastPath: 'on' | 'off', args: readonly string[]): Promise<Outcome> {
  const server = [
    '-e',
    'MCP_TRANSPORT_TYPE=stdio',
    '-e',
    'MCP_LOG_LEVEL=error',
    '-e',
    `MCP_STDIO_FAST_PATH=${fastPath}`,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        INSPECTOR,
        '--cli',
        '-q',
        // 'legacy' is the Inspector's name for the 2025 handshake.
        '--protocol-era',
        'legacy',
        ...server,
        ...args,
        process.execPath,
        NOTES_SERVER,
      ],
      { env: { ...process.env, HOME: home }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        const normalise = (text: string) =>
          text
            .replace(/\*\*Request id:\*\* [\w-]+/g, '**Request id:** <id>')
            .replace(/"requestId": "[\w-]+"/g, '"requestId": "<id>"');
        resolve({ exitCode: error ? Number(error.code) : 0, stdout: normalise(stdout), stderr: normalise(stderr) });
      },
    );
  });
}

const CALLS: ReadonlyArray<readonly [string, readonly string[], (outcome: Outcome) => void]> = [
  [
    'a tool result',
    ['--tool-arg', 'query=kiln', '--method', 'tools/call', '--tool-name', 'notes_search_notes'],
    ({ exitCode, stdout }) => {
      expect(exitCode).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ structuredContent: { effectiveQuery: 'kiln', totalCount: 0 } });
    },
  ],
  [
    'a tool error for invalid arguments',
    ['--method', 'tools/call', '--tool-name', 'notes_get_note'],
    ({ stdout, stderr }) => {
      expect(stdout).toContain('Error -32602: Invalid arguments for tool notes_get_note');
      expect(stderr).toContain("Tool 'notes_get_note' returned isError:true.");
    },
  ],
  [
    'a resource read error',
    ['--method', 'resources/read', '--uri', 'notes://missing'],
    ({ exitCode, stderr }) => {
      expect(exitCode).not.toBe(0);
      expect(stderr).toContain('No note has this id.');
    },
  ],
  [
    'a prompt',
    ['--prompt-args', 'tag=kiln', '--method', 'prompts/get', '--prompt-name', 'notes_summarize'],
    ({ exitCode, stdout }) => {
      expect(exitCode).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({
        messages: [{ role: 'user', content: { type: 'text', text: expect.stringContaining('tagged "kiln"') } }],
      });
    },
  ],
];

describe('the Inspector CLI over stdio (2025 era), with the direct path on and off', () => {
  it.each(CALLS)('gets the same answer: %s', async (_name, args, check) => {
    const [direct, sdk] = await Promise.all([inspect('on', args), inspect('off', args)]);
    check(direct);
    expect(direct).toEqual(sdk);
  });
});
