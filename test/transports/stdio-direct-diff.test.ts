// The stdio direct path answers exactly what the SDK's stdio transport answers: one corpus of messages on a 2025
// connection (successes, handler and pipeline errors, log lines under each log level, input_required rounds the SDK's
// shim settles, progress, malformed shapes) written to one app with MCP_STDIO_FAST_PATH=on and one with it off, in the
// same order; the lines each writes to stdout must be identical, byte for byte, in the same order. Only Kiln's
// generated requestIds are normalised.
import { PassThrough } from 'node:stream';
import { type KilnApp, stdio } from 'mcp-kiln';
import type { TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileDiffApp, DIFF_REQUEST_STATE_KEY } from '../http/helpers/diff-app.js';
import { type Json, request, SESSION_CALL_CORPUS } from '../http/helpers/session-call-corpus.js';

interface Side {
  readonly testing: TestingApp;
  readonly stdin: PassThrough;
  readonly stdout: PassThrough;
  /** Every line written to stdout so far. */
  readonly lines: string[];
  readonly runs: { readonly mock: { readonly calls: Parameters<KilnApp['runSessionCall']>[] } };
  close(): Promise<void>;
}

const HANDSHAKE_VERSION = '2025-11-25';
const sides: Record<'direct' | 'sdk', Side> = {} as never;

async function start(fastPath: 'on' | 'off'): Promise<Side> {
  const testing = await compileDiffApp('kiln-stdio-diff', 'off', {
    MCP_TRANSPORT_TYPE: 'stdio',
    MCP_STDIO_FAST_PATH: fastPath,
    MCP_REQUEST_STATE_KEY: DIFF_REQUEST_STATE_KEY,
  });
  const runs = vi.spyOn(testing.app, 'runSessionCall');
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  let partial = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  const serving = await testing.app.serve(stdio({ stdin, stdout }));
  const side: Side = {
    testing,
    stdin,
    stdout,
    lines,
    runs,
    close: async () => {
      stdin.end();
      await serving.close();
      await testing.close();
    },
  };
  await exchange(side, {
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: HANDSHAKE_VERSION, capabilities: {}, clientInfo: { name: 'diff', version: '1.0.0' } },
  });
  side.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return side;
}

beforeAll(async () => {
  [sides.direct, sides.sdk] = await Promise.all([start('on'), start('off')]);
});
afterAll(async () => {
  for (const side of Object.values(sides)) await side?.close();
});

let syncs = 0;

/** The id a response to `body` comes back under: a request's string or safe-integer id. */
function answeredId(body: unknown): string | number | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { id, method } = body as Json;
  if (typeof method !== 'string') return undefined;
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : undefined;
}

function answers(line: string, id: string | number): boolean {
  const message = JSON.parse(line) as Json;
  return message.id === id && ('result' in message || 'error' in message);
}

/**
 * Writes `body` (an object, or raw text) and then a ping, and returns every line written until the ping's answer and
 * the body's own answer (when it is a request) are both out, the ping's answer left out: it may overtake a call.
 */
async function exchange(side: Side, body: unknown): Promise<string[]> {
  const from = side.lines.length;
  const sync = `sync-${++syncs}`;
  side.stdin.write(`${typeof body === 'string' ? body : JSON.stringify(body)}\n`);
  side.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: sync, method: 'ping' })}\n`);
  const id = answeredId(body);
  const seen = () => side.lines.slice(from);
  await vi.waitFor(
    () => {
      const lines = seen();
      if (!lines.some((line) => answers(line, sync))) throw new Error('the ping is not answered yet');
      if (id !== undefined && !lines.some((line) => answers(line, id))) throw new Error(`${id} is not answered yet`);
    },
    { timeout: 5_000, interval: 2 },
  );
  return seen()
    .filter((line) => !answers(line, sync))
    .map((line) => line.replace(/"requestId":"[\w-]+"/g, '"requestId":"<requestId>"'))
    .map((line) => line.replace(/\*\*Request id:\*\* [\w-]+/g, '**Request id:** <requestId>'));
}

const CORPUS = SESSION_CALL_CORPUS;

describe('the stdio direct path writes what the SDK stdio transport writes', () => {
  it.each(CORPUS.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const [direct, sdk] = await Promise.all([
      exchange(sides.direct, testCase.body),
      exchange(sides.sdk, testCase.body),
    ]);
    expect(direct).toEqual(sdk);
  });

  it('ran the calls it owns itself, and none on the side with it off', () => {
    expect(sides.sdk.runs).not.toHaveBeenCalled();
    const methods = new Set(sides.direct.runs.mock.calls.map(([run]) => run.method));
    expect(methods).toEqual(new Set(['tools/call', 'resources/read', 'prompts/get']));
  });

  it('answers nothing for a call the client cancelled, on either side', async () => {
    const transcripts = await Promise.all(
      Object.values(sides).map(async (side) => {
        const slow = request('tools/call', { name: 'probe_slow', arguments: { ms: 200 } }, 'to-cancel');
        side.stdin.write(`${JSON.stringify(slow)}\n`);
        const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'to-cancel' } };
        const lines = await exchange(side, cancel);
        // Past the call's own end: an answer it would still write would be out by now.
        await new Promise((resolve) => setTimeout(resolve, 300));
        return [...lines, ...(await exchange(side, request('ping', {}, 'after')))];
      }),
    );
    expect(transcripts[0]).toEqual(transcripts[1]);
    expect(transcripts[0]?.some((line) => line.includes('"to-cancel"'))).toBe(false);
  });
});
