// Params that break a method's MCP schema are the caller's mistake: -32602 with reason invalid_params and a message
// naming each field, on both eras over HTTP (stdio: test/integration/stdio-invalid-params.test.ts). The SDK alone
// would answer -32603 with zod's raw issue dump (tools/call: -32602, with the same dump).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envelopeHeaders,
  envelopeRequest,
  type JsonObject,
  jsonRpcMessages,
  openRawSession,
  post,
  type RunningServer,
  sessionHeaders,
  startHttpServer,
} from './helpers/http-server.js';

let server: RunningServer;
let sessionId: string;

beforeAll(async () => {
  server = await startHttpServer({ MCP_SESSION_MODE: 'stateful' });
  sessionId = await openRawSession(server.endpoint);
});
afterAll(() => server.close());

const CASES: ReadonlyArray<readonly [method: string, params: JsonObject, field: RegExp]> = [
  ['tools/list', { cursor: 5 }, /params\.cursor: .*expected string/],
  ['prompts/get', { name: 5 }, /params\.name: .*expected string/],
  ['completion/complete', { ref: 5, argument: { name: 'style', value: 'b' } }, /params\.ref/],
  ['resources/read', { uri: 5 }, /params\.uri: .*expected string/],
  ['tools/call', { name: 'probe_whoami', arguments: 7 }, /params\.arguments: .*expected record/],
];

function expectInvalidParams(message: JsonObject | undefined, id: number, method: string, field: RegExp): void {
  expect(message).toMatchObject({ id, error: { code: -32602, data: { reason: 'invalid_params' } } });
  const { message: text } = (message as { error: { message: string } }).error;
  expect(text).toMatch(new RegExp(`^Invalid params for ${method.replace('/', '\\/')}: `));
  expect(text).toMatch(field);
  // Readable, not zod's JSON dump, and nothing from the server's insides.
  expect(text).not.toMatch(/^\[|"code":|\n|\bat \S+ \(|node_modules/);
}

describe('2025 session', () => {
  let nextId = 100;
  const send = async (method: string, params: JsonObject) => {
    const id = nextId++;
    const response = await post(server.endpoint, { jsonrpc: '2.0', id, method, params }, sessionHeaders(sessionId));
    expect(response.status).toBe(200);
    return { id, messages: await jsonRpcMessages(response) };
  };

  it.each([...CASES, ['logging/setLevel', { level: 'loud' }, /params\.level: .*expected one of/] as const])(
    '%s with invalid params gets -32602 naming the field',
    async (method, params, field) => {
      const { id, messages } = await send(method, params);
      expectInvalidParams(messages.at(-1), id, method, field);
    },
  );

  it('keeps serving the session afterwards', async () => {
    const { id, messages } = await send('tools/list', {});
    expect(messages.at(-1)).toMatchObject({ id, result: { tools: expect.any(Array) } });
  });

  it('leaves a handler-level invalid argument as it was (a tool call result with isError)', async () => {
    const { messages } = await send('tools/call', { name: 'notes_create_note', arguments: { title: '' } });
    expect(messages.at(-1)).toMatchObject({ result: { isError: true } });
  });
});

describe('2026-07-28', () => {
  it.each(CASES)('%s with invalid params gets -32602 naming the field', async (method, params, field) => {
    const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
    const response = await post(server.endpoint, envelopeRequest(method, params, { id: 7 }), {
      ...envelopeHeaders(method),
      ...name,
    });
    expect(response.status).toBeLessThan(500);
    const [message] = await jsonRpcMessages(response);
    expectInvalidParams(message, 7, method, field);
  });
});
