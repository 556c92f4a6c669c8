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

type Json = Record<string, unknown>;

interface Side {
  readonly testing: TestingApp;
  readonly stdin: PassThrough;
  readonly stdout: PassThrough;
  /** Every line written to stdout so far. */
  readonly lines: string[];
  readonly runs: { readonly mock: { readonly calls: Parameters<KilnApp['runSessionCall']>[] } };
  close(): Promise<void>;
}

const LEGACY_VERSION = '2025-11-25';
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
    params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'diff', version: '1.0.0' } },
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

let nextId = 1;

function request(method: string, params: Json = {}, id: unknown = nextId++): Json {
  return { jsonrpc: '2.0', id, method, params };
}

interface Case {
  readonly name: string;
  readonly body: unknown;
}

function call(name: string, args: unknown, extra: Json = {}): Case {
  return {
    name: `tools/call ${name} ${JSON.stringify(args)}${JSON.stringify(extra)}`,
    body: request('tools/call', { name, arguments: args, ...extra }),
  };
}

function plain(method: string, params: Json = {}, label = ''): Case {
  return { name: `${method} ${JSON.stringify(params)} ${label}`, body: request(method, params) };
}

function withBody(base: Case, label: string, change: (body: Json) => unknown): Case {
  return { name: `${base.name} [${label}]`, body: change(structuredClone(base.body) as Json) };
}

const whoami = call('probe_whoami', {});

const CORPUS: Case[] = [
  // What the direct path runs itself.
  whoami,
  call('notes_search_notes', { query: '' }),
  call('probe_structured', {}),
  { name: 'string id', body: request('tools/call', { name: 'probe_whoami', arguments: {} }, 'string-id') },
  { name: 'id 0', body: request('tools/call', { name: 'probe_whoami', arguments: {} }, 0) },
  plain('resources/read', { uri: 'probe://static' }),
  plain('resources/read', { uri: 'probe://cached' }),
  plain('prompts/get', { name: 'probe_prompt', arguments: { who: 'Ada' } }),
  plain('prompts/get', { name: 'notes_summarize', arguments: { tag: 'diff' } }),
  call('probe_whoami', {}, { _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } }),
  // Errors a handler or the pipeline answers.
  call('notes_get_note', { id: 'missing' }),
  call('no_such_tool', {}),
  call('notes_get_note', { id: 5 }),
  call('notes_get_note', {}),
  call('notes_search_notes', { query: '', limit: 99 }),
  withBody(call('notes_get_note', { id: 'x' }), 'no arguments', (body) => {
    delete ((body as { params: Json }).params as Json).arguments;
    return body;
  }),
  call('probe_throws', { code: -32002 }),
  call('probe_throws', { code: -32042 }),
  call('probe_throws', { code: -32603 }),
  call('probe_throws', { code: 1.5 }),
  plain('resources/read', { uri: 'probe://fails' }),
  plain('resources/read', { uri: 'notes://missing' }),
  plain('resources/read', { uri: 'nowhere://at-all' }),
  plain('prompts/get', { name: 'no_such_prompt' }),
  plain('prompts/get', { name: 'notes_summarize', arguments: {} }),
  plain('prompts/get', { name: 'probe_prompt', arguments: { who: 5 } }),
  // Log lines: every line while no level is set, then only those the level lets through.
  call('probe_log', {}),
  plain('logging/setLevel', { level: 'warning' }),
  call('probe_log', {}),
  plain('logging/setLevel', { level: 'emergency' }),
  call('probe_log', {}),
  plain('logging/setLevel', { level: 'debug' }),
  call('probe_log', {}),
  // input_required rounds: the SDK's shim refuses what the client did not declare.
  ...(['sampling', 'roots', 'url', 'form'] as const).map((kind) => call('probe_ask', { kind })),
  call('fixture_sealed_echo', {}),
  plain('resources/read', { uri: 'fixture://sealed' }),
  plain('prompts/get', { name: 'fixture_sealed_prompt' }),
  // Shapes the direct path leaves to the SDK.
  call('probe_slow', { ms: 10 }, { _meta: { progressToken: 'p-1' } }),
  call('probe_whoami', {}, { _meta: 'not an object' }),
  call('probe_whoami', {}, { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }),
  call('probe_whoami', {}, { extra: true }),
  call('notes_search_notes', []),
  call('notes_search_notes', null),
  call('fixture_sealed_echo', {}, { requestState: 'v1.forged.state' }),
  plain('resources/read', { uri: 7 }),
  plain('resources/read', { uri: 'probe://static', extra: true }),
  plain('prompts/get', { name: 'probe_prompt', arguments: null }),
  plain('tools/list'),
  withBody(whoami, 'a batch', (body) => [body]),
  withBody(whoami, 'jsonrpc 1.0', (body) => ({ ...(body as Json), jsonrpc: '1.0' })),
  withBody(whoami, 'id null', (body) => ({ ...(body as Json), id: null })),
  withBody(whoami, 'id fractional', (body) => ({ ...(body as Json), id: 1.5 })),
  withBody(whoami, 'extra top-level key', (body) => ({ ...(body as Json), extra: true })),
  withBody(whoami, 'no id (a notification)', (body) => {
    delete (body as Json).id;
    return body;
  }),
  { name: 'not JSON', body: '{"jsonrpc":' },
];

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
