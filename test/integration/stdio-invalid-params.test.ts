// Params that break a method's MCP schema on stdio, both eras: -32602 with reason invalid_params and a readable
// message naming the field, where the SDK alone answers -32603 with zod's raw issue dump. The correction lives in
// the protocol server every transport builds, so stdio gets it with HTTP (test/http/invalid-params.test.ts).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, NOTES_SERVER } from './helpers/built-servers.js';
import { type RawStdioServer, spawnRawServer } from './helpers/raw-stdio-server.js';

let server: RawStdioServer | undefined;

beforeAll(() => assertBuilt(NOTES_SERVER));
afterEach(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
});

const ENVELOPE_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'invalid-params', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const CASES: ReadonlyArray<readonly [method: string, params: Record<string, unknown>, field: RegExp]> = [
  ['tools/list', { cursor: 5 }, /params\.cursor: .*expected string/],
  ['prompts/get', { name: 5 }, /params\.name: .*expected string/],
  ['resources/read', { uri: 5 }, /params\.uri: .*expected string/],
  ['completion/complete', { ref: 5, argument: { name: 'style', value: 'b' } }, /params\.ref/],
];

function expectInvalidParams(answer: Record<string, unknown>, method: string, field: RegExp): void {
  expect(answer).toMatchObject({ error: { code: -32602, data: { reason: 'invalid_params' } } });
  const { message } = (answer as { error: { message: string } }).error;
  expect(message.startsWith(`Invalid params for ${method}: `)).toBe(true);
  expect(message).toMatch(field);
  expect(message).not.toMatch(/^\[|"code":|\n/);
}

async function initialized(): Promise<RawStdioServer> {
  const running = spawnRawServer(NOTES_SERVER, { MCP_LOG_LEVEL: 'error' });
  server = running;
  running.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'invalid-params', version: '1' } },
  });
  expect(await running.response(1)).toMatchObject({ result: { serverInfo: { name: 'kiln-notes' } } });
  running.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return running;
}

describe('notes server on stdio, 2025 session', () => {
  it('answers each invalid params request with -32602 naming the field, and keeps serving', async () => {
    const running = await initialized();
    let id = 10;
    for (const [method, params, field] of [
      ...CASES,
      ['logging/setLevel', { level: 'loud' }, /params\.level: .*expected one of/] as const,
    ]) {
      running.send({ jsonrpc: '2.0', id: ++id, method, params });
      expectInvalidParams(await running.response(id), method, field);
    }
    running.send({ jsonrpc: '2.0', id: 99, method: 'tools/list', params: {} });
    expect(await running.response(99)).toMatchObject({ result: { tools: expect.any(Array) } });
  });
});

describe('notes server on stdio, 2026-07-28 requests', () => {
  it('answers each invalid params request with -32602 naming the field', async () => {
    const running = spawnRawServer(NOTES_SERVER, { MCP_LOG_LEVEL: 'error' });
    server = running;
    let id = 10;
    for (const [method, params, field] of CASES) {
      running.send({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: ENVELOPE_META } });
      expectInvalidParams(await running.response(id), method, field);
    }
  });
});
