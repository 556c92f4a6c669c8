// Bad input on stdio: a line that is not JSON gets a parse error (-32700, id null), JSON that is not a JSON-RPC 2.0
// message, a batch or an over-long line gets -32600, each as one JSON line on stdout; the server stays up and answers
// the next request. Text outside ASCII survives stdin's chunking whole.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, NOTES_SERVER } from './helpers/built-servers.js';
import { connectServer } from './helpers/connected-server.js';
import { ERAS } from './helpers/eras.js';
import { type RawStdioServer, spawnRawServer } from './helpers/raw-stdio-server.js';
import { structured } from './helpers/tool-results.js';

interface WireMessage {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

let server: RawStdioServer | undefined;

beforeAll(() => assertBuilt(NOTES_SERVER));
afterEach(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
});

function spawnNotes(env: Readonly<Record<string, string>> = {}): RawStdioServer {
  server = spawnRawServer(NOTES_SERVER, { MCP_LOG_LEVEL: 'error', ...env });
  return server;
}

/** Opens the 2025 session, asserting the handshake is answered. */
async function openSession(running: RawStdioServer): Promise<void> {
  running.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bad-input', version: '1' } },
  });
  expect(await running.response(1)).toMatchObject({ result: { serverInfo: { name: 'kiln-notes' } } });
  running.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

/** A notes server with its 2025 session open. */
async function initializedServer(env: Readonly<Record<string, string>> = {}): Promise<RawStdioServer> {
  const running = spawnNotes(env);
  await openSession(running);
  return running;
}

let nextProbeId = 1000;

/** Proof the server kept serving: a later request is answered as usual. */
async function expectStillServing(running: RawStdioServer): Promise<void> {
  const id = nextProbeId++;
  running.send({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
  expect(await running.response(id)).toMatchObject({ result: { tools: expect.any(Array) } });
}

/** Every stdout line parsed; each must be a JSON-RPC 2.0 message, since stdout carries nothing else. */
function wireMessages(running: RawStdioServer): WireMessage[] {
  const messages = running.stdoutLines().map((line) => JSON.parse(line) as WireMessage);
  for (const message of messages) expect(message.jsonrpc).toBe('2.0');
  return messages;
}

const errorsWithNullId = (running: RawStdioServer) =>
  wireMessages(running).filter((message) => message.error !== undefined && message.id === null);

describe('notes server on stdio, given lines that are not JSON', () => {
  it('answers each with a parse error and keeps serving', async () => {
    const running = spawnNotes();
    running.child.stdin.write('{this is not json\n');
    running.child.stdin.write('[1, 2,\n');
    await openSession(running);

    const errors = wireMessages(running).filter((message) => message.error !== undefined);
    expect(errors).toHaveLength(2);
    for (const error of errors) {
      expect(error).toMatchObject({
        id: null,
        error: { code: -32700, message: expect.stringContaining('not valid JSON'), data: { reason: 'parse_error' } },
      });
    }
  });
});

describe('notes server on stdio, given JSON that is not a JSON-RPC 2.0 message', () => {
  const invalid: [string, Record<string, unknown>, string][] = [
    ['params as an array', { jsonrpc: '2.0', id: 11, method: 'tools/list', params: [] }, '"params" is an array'],
    ['params as a string', { jsonrpc: '2.0', id: 12, method: 'tools/list', params: 'all' }, '"params" is a string'],
    ['jsonrpc missing', { id: 13, method: 'tools/list' }, 'the "jsonrpc" member is missing'],
    ['jsonrpc "1.0"', { jsonrpc: '1.0', id: 14, method: 'tools/list' }, '"jsonrpc" is a string ("1.0")'],
    ['no method', { jsonrpc: '2.0', id: 15, params: {} }, 'there is no "method"'],
  ];

  it('answers each with -32600 carrying its id, and answers the next request after each', async () => {
    const running = await initializedServer();
    for (const [name, message, problem] of invalid) {
      running.child.stdin.write(`${JSON.stringify(message)}\n`);
      const answer = await running.response(message.id as number);
      expect(answer, name).toEqual({
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: -32600,
          message: expect.stringContaining(`Invalid Request: ${problem}`),
          data: { reason: 'invalid_message', recovery: { hint: expect.any(String) } },
        },
      });
      await expectStillServing(running);
    }
    wireMessages(running);
  });

  it('answers a batch with a single -32600 (id null) saying MCP has no batches, and keeps serving', async () => {
    const running = await initializedServer();
    const batch = [
      { jsonrpc: '2.0', id: 21, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 22, method: 'ping' },
    ];
    running.child.stdin.write(`${JSON.stringify(batch)}\n`);
    // Lines are answered in order, so the batch's answer is on stdout before the next request's.
    await expectStillServing(running);

    expect(errorsWithNullId(running)).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: expect.stringContaining('MCP does not support JSON-RPC batches'),
          data: { reason: 'invalid_message', recovery: { hint: expect.any(String) } },
        },
      },
    ]);
    expect(wireMessages(running).filter((message) => message.id === 21 || message.id === 22)).toEqual([]);
  });
});

describe('notes server on stdio, given a line over the length cap', () => {
  it('answers an 11 MiB line (over the SDK read buffer) with -32600 naming the 4 MiB cap, and keeps serving', async () => {
    const running = await initializedServer();
    const call = {
      jsonrpc: '2.0',
      id: 31,
      method: 'tools/call',
      params: { name: 'notes_create_note', arguments: { title: 'Huge', body: 'x'.repeat(11 * 1024 * 1024) } },
    };
    running.child.stdin.write(`${JSON.stringify(call)}\n`);
    await expectStillServing(running);
    await expectStillServing(running);

    expect(errorsWithNullId(running)).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: expect.stringContaining('limit of 4194304 bytes'),
          data: { reason: 'message_too_large', recovery: { hint: expect.any(String) } },
        },
      },
    ]);
    expect(wireMessages(running).filter((message) => message.id === 31)).toEqual([]);
  });

  it('takes the cap from MCP_STDIO_MAX_LINE_BYTES', async () => {
    const running = await initializedServer({ MCP_STDIO_MAX_LINE_BYTES: '2048' });
    running.send({ jsonrpc: '2.0', id: 41, method: 'tools/list', params: { cursor: 'c'.repeat(3000) } });
    await expectStillServing(running);

    expect(errorsWithNullId(running)).toEqual([
      expect.objectContaining({
        error: expect.objectContaining({ code: -32600, message: expect.stringContaining('limit of 2048 bytes') }),
      }),
    ]);
  });
});

describe.each(ERAS)('notes server on stdio, given text outside ASCII ($era era)', (eraCase) => {
  it('stores and returns a note of 120,000 "€" (split across 64 KiB pipe chunks) unchanged', async ({
    onTestFinished,
  }) => {
    const connected = await connectServer(NOTES_SERVER, eraCase);
    onTestFinished(() => connected.close());
    const body = '€'.repeat(120_000);

    const created = structured(
      await connected.client.callTool({ name: 'notes_create_note', arguments: { title: 'Euros', body } }),
    );
    expect(created.body).toBe(body);
    const fetched = structured(
      await connected.client.callTool({ name: 'notes_get_note', arguments: { id: created.id } }),
    );
    expect(fetched.body).toBe(body);
  });
});
