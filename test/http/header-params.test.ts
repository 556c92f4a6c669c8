// Header parameters over the real HTTP host (2026-07-28, SEP-2243): a tools/call whose Mcp-Param-* header is
// missing, malformed or disagrees with the argument it mirrors is refused with HTTP 400 and -32020 before the call
// runs; the official client mirrors the arguments itself; 2025-era traffic has no such headers and is unaffected.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EverythingModule } from '../../examples/everything/everything.module.js';
import { type HttpServing, http } from '../../modules/http/index.js';
import { connectClient, envelopeHeaders, envelopeRequest, jsonRpcMessages, post } from './helpers/http-server.js';

let testing: TestingApp;
let serving: HttpServing;

beforeAll(async () => {
  testing = await createTestingModule({ imports: [EverythingModule] }).compile({
    env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0' },
  });
  serving = await testing.app.serve(http());
});
afterAll(async () => {
  await serving.close();
  await testing.close();
});

const TOOL = 'test_header_parameters';

function call(args: Record<string, unknown>, headers: Record<string, string>, id = 7) {
  return post(serving.endpointUrl, envelopeRequest('tools/call', { name: TOOL, arguments: args }, { id }), {
    ...envelopeHeaders('tools/call'),
    'mcp-name': TOOL,
    ...headers,
  });
}

async function answerText(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  const messages = await jsonRpcMessages(response);
  const result = messages.at(-1)?.result as { content: { text: string }[]; isError?: boolean };
  expect(result.isError).toBeUndefined();
  return result.content[0]?.text ?? '';
}

async function refusal(response: Response) {
  expect(response.status).toBe(400);
  return (await response.json()) as { id: unknown; error: { code: number; message: string; data: unknown } };
}

describe('Mcp-Param-* headers on a 2026-07-28 tools/call', () => {
  it('serves a call whose headers mirror its arguments, literal or Base64-wrapped', async () => {
    expect(await answerText(await call({ region: 'eu' }, { 'mcp-param-region': 'eu' }))).toBe(
      'Looked up "" in region eu.',
    );
    const zurich = `=?base64?${Buffer.from('zürich').toString('base64')}?=`;
    expect(
      await answerText(
        await call({ region: 'zürich', shard: 7 }, { 'Mcp-Param-Region': zurich, 'Mcp-Param-Shard': '7' }),
      ),
    ).toBe('Looked up "" in region zürich, shard 7.');
  });

  it('compares integers numerically and ignores a header whose argument is absent', async () => {
    expect(
      await answerText(await call({ region: 'eu', shard: 7 }, { 'mcp-param-region': 'eu', 'mcp-param-shard': '7.0' })),
    ).toBe('Looked up "" in region eu, shard 7.');
    expect(await answerText(await call({ region: 'eu' }, { 'mcp-param-region': 'eu', 'mcp-param-shard': '3' }))).toBe(
      'Looked up "" in region eu.',
    );
  });

  it('refuses a missing header with 400 and -32020, echoing the request id', async () => {
    const body = await refusal(await call({ region: 'eu' }, {}, 41));
    expect(body).toMatchObject({
      id: 41,
      error: {
        code: -32020,
        message:
          'Bad Request: the request headers and body disagree: the body carries region="eu" but the Mcp-Param-Region header is absent',
        data: { reason: 'header_mismatch', mismatch: { header: 'Mcp-Param-Region', body: 'region' } },
      },
    });
  });

  it.each([
    [
      'a different value',
      { 'mcp-param-region': 'us' },
      'the Mcp-Param-Region header decodes to "us" but the body carries region="eu"',
    ],
    [
      'unpadded Base64',
      { 'mcp-param-region': '=?base64?ZXU?=' },
      'the Mcp-Param-Region header is not a plain ASCII value',
    ],
    [
      'Base64 outside the alphabet',
      { 'mcp-param-region': '=?base64?Z!U=?=' },
      'the Mcp-Param-Region header is not a plain ASCII value',
    ],
  ])('refuses %s', async (_label, headers, problem) => {
    const body = await refusal(await call({ region: 'eu' }, headers));
    expect(body.error.code).toBe(-32020);
    expect(body.error.message).toContain(problem);
  });

  it('refuses a disagreeing integer header', async () => {
    const body = await refusal(
      await call({ region: 'eu', shard: 7 }, { 'mcp-param-region': 'eu', 'mcp-param-shard': '8' }),
    );
    expect(body.error.message).toContain('the Mcp-Param-Shard header decodes to "8" but the body carries shard=7');
  });

  it('is what the official 2026-07-28 client sends on its own, for non-ASCII values too', async () => {
    const { client } = await connectClient(serving.endpointUrl, 'envelope');
    await client.listTools();
    const result = await client.callTool({ name: TOOL, arguments: { region: 'zürich', shard: 2 } });
    expect(result.content).toEqual([{ type: 'text', text: 'Looked up "" in region zürich, shard 2.' }]);
    await client.close();
  });

  it('does not apply to a 2025-era session', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(serving.endpointUrl));
    const client = new Client({ name: 'handshake', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({ name: TOOL, arguments: { region: 'eu' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Looked up "" in region eu.' }]);
    await client.close();
  });
});
