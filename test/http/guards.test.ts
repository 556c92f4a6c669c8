// What the HTTP host refuses before any protocol server runs (spec §2.1, §2.3): forged Host and foreign Origin (403),
// oversized bodies (413), non-JSON media types (415), a narrow Accept (406), malformed JSON (400, -32700), and the
// SDK's 2026-07-28 header checks. Every refusal is a JSON-RPC error body, and the server keeps serving after each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENVELOPE_VERSION,
  envelopeHeaders,
  envelopeRequest,
  handshakeToolsList,
  type JsonRpcErrorBody,
  jsonRpcError,
  jsonRpcMessages,
  MCP_ACCEPT,
  post,
  type RunningServer,
  startHttpServer,
} from './helpers/http-server.js';
import { rawHttp } from './helpers/raw-http.js';

const MAX_BODY_BYTES = 4096;
const ALLOWED_ORIGIN = 'https://app.example';

let server: RunningServer;
let endpoint: string;
let port: string;

beforeAll(async () => {
  server = await startHttpServer({
    MCP_HTTP_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    MCP_ALLOWED_ORIGINS: ALLOWED_ORIGIN,
  });
  endpoint = server.endpoint;
  port = new URL(endpoint).port;
});
afterAll(() => server.close());

/** A stateless 2025 tools/list (the default auto mode serves it without a session) through node:http. */
function toolsListWith(headers: Record<string, string>) {
  return rawHttp(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: MCP_ACCEPT,
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify(handshakeToolsList()),
  });
}

/** The server still answers a well-formed request with a tool list. */
async function expectStillServing(): Promise<void> {
  const response = await post(endpoint, handshakeToolsList(99), { 'mcp-protocol-version': '2025-11-25' });
  expect(response.status).toBe(200);
  const [message] = await jsonRpcMessages(response);
  expect(message).toMatchObject({ id: 99, result: { tools: expect.any(Array) } });
}

describe('DNS-rebinding guards', () => {
  it.each([
    ['a foreign Host', () => ({ host: 'evil.example.com' })],
    ['a foreign Host with the right port', () => ({ host: `evil.example.com:${port}` })],
    ['a foreign Origin', () => ({ origin: 'http://evil.example.com' })],
    ['a foreign Host and Origin', () => ({ host: 'evil.example.com', origin: 'http://evil.example.com' })],
    ['a look-alike Origin', () => ({ origin: 'http://localhost.evil.example.com' })],
  ])('refuses %s with 403', async (_label, headers) => {
    const response = await toolsListWith(headers());
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    await expectStillServing();
  });

  it.each([
    ['Host localhost', () => ({ host: `localhost:${port}` })],
    ['Host 127.0.0.1', () => ({ host: `127.0.0.1:${port}` })],
    ['Origin localhost', () => ({ origin: `http://localhost:${port}` })],
    ['Origin 127.0.0.1', () => ({ origin: `http://127.0.0.1:${port}` })],
    ['Host and Origin localhost', () => ({ host: `localhost:${port}`, origin: `http://localhost:${port}` })],
    ['an origin from MCP_ALLOWED_ORIGINS', () => ({ origin: ALLOWED_ORIGIN })],
  ])('serves a request with %s', async (_label, headers) => {
    const response = await toolsListWith(headers());
    expect(response.status).toBe(200);
    expect(response.body).toContain('"probe_whoami"');
  });
});

describe('body and media-type guards', () => {
  it('refuses a body over MCP_HTTP_MAX_BODY_BYTES with 413 naming the limit', async () => {
    const oversized = {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'notes_create_note', arguments: { title: 'big', body: 'x'.repeat(MAX_BODY_BYTES) } },
    };
    const response = await post(endpoint, oversized, { 'mcp-protocol-version': '2025-11-25' });
    expect(response.status).toBe(413);
    const body = await jsonRpcError(response);
    expect(body.error.message).toContain(`${MAX_BODY_BYTES} bytes`);
    expect(body.error.message).toContain('MCP_HTTP_MAX_BODY_BYTES');
    await expectStillServing();
  });

  it('accepts a body just under the limit', async () => {
    const response = await post(
      endpoint,
      envelopeRequest('tools/call', {
        name: 'notes_create_note',
        arguments: { title: 'fits', body: 'x'.repeat(MAX_BODY_BYTES - 600) },
      }),
      { ...envelopeHeaders('tools/call'), 'mcp-name': 'notes_create_note' },
    );
    expect(response.status).toBe(200);
    const [message] = await jsonRpcMessages(response);
    expect(message).toMatchObject({ result: { structuredContent: { title: 'fits' } } });
  });

  it.each([
    [
      'text/plain content',
      { 'content-type': 'text/plain' },
      JSON.stringify(handshakeToolsList()),
      415,
      -32600,
      /Content-Type/,
    ],
    [
      'an Accept without text/event-stream',
      { accept: 'application/json' },
      JSON.stringify(handshakeToolsList()),
      406,
      -32600,
      /Accept/,
    ],
    [
      'an Accept without application/json',
      { accept: 'text/event-stream' },
      JSON.stringify(handshakeToolsList()),
      406,
      -32600,
      /Accept/,
    ],
    ['malformed JSON', {}, '{"jsonrpc": "2.0", "id": 1, "method": ', 400, -32700, /Parse error/],
  ])('refuses %s (%i)', async (_label, headers, body, status, code, message) => {
    const response = await post(endpoint, body, { 'mcp-protocol-version': '2025-11-25', ...headers });
    expect(response.status).toBe(status);
    const error: JsonRpcErrorBody = await jsonRpcError(response);
    expect(error).toMatchObject({ id: null, error: { code } });
    expect(error.error.message).toMatch(message);
    await expectStillServing();
  });
});

describe('2026-07-28 header checks pass through the host', () => {
  it('answers an MCP-Protocol-Version header that disagrees with _meta with 400 and -32020', async () => {
    const response = await post(
      endpoint,
      envelopeRequest('tools/list', {}, { id: 11, version: 'v999.0.0' }),
      envelopeHeaders('tools/list', ENVELOPE_VERSION),
    );
    expect(response.status).toBe(400);
    const body = await jsonRpcError(response);
    expect(body.error.code).toBe(-32020);
    await expectStillServing();
  });

  it('answers an unsupported protocol version with 400 and -32022 naming the supported ones', async () => {
    const response = await post(
      endpoint,
      envelopeRequest('tools/list', {}, { id: 12, version: '2099-01-01' }),
      envelopeHeaders('tools/list', '2099-01-01'),
    );
    expect(response.status).toBe(400);
    const body = await jsonRpcError(response);
    expect(body.error.code).toBe(-32022);
    expect(body.error.data).toMatchObject({ requested: '2099-01-01' });
    expect(body.error.data?.supported).toContain(ENVELOPE_VERSION);
    await expectStillServing();
  });

  it('serves the same request when header and _meta agree', async () => {
    const response = await post(endpoint, envelopeRequest('tools/list', {}, { id: 13 }), envelopeHeaders('tools/list'));
    expect(response.status).toBe(200);
    const [message] = await jsonRpcMessages(response);
    expect(message).toMatchObject({ id: 13, result: { tools: expect.any(Array) } });
  });
});
