// HTTP methods on the MCP endpoint (spec §2.1, §2.2): POST, GET and DELETE are served; every other method gets 405
// with `Allow: GET, POST, DELETE` and a JSON-RPC body, before any body is read. A DELETE ends its session whatever
// Content-Type it carries, as the SDK client copies its custom headers onto the DELETE.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  handshakeToolsList,
  jsonRpcError,
  jsonRpcMessages,
  openRawSession,
  post,
  type RunningServer,
  sessionHeaders,
  startHttpServer,
} from './helpers/http-server.js';
import { rawHttp } from './helpers/raw-http.js';

let server: RunningServer;
let endpoint: string;

beforeAll(async () => {
  server = await startHttpServer({ MCP_SESSION_MODE: 'stateful' });
  endpoint = server.endpoint;
});
afterAll(() => server.close());

async function expectSessionOpen(sessionId: string, open: boolean): Promise<void> {
  const response = await post(endpoint, handshakeToolsList(3), sessionHeaders(sessionId));
  expect(response.status).toBe(open ? 200 : 404);
  await response.text();
}

describe('methods the endpoint does not serve', () => {
  it.each(['PUT', 'PATCH', 'OPTIONS', 'QUERY'])('answers %s with 405, Allow and a JSON-RPC error', async (method) => {
    const response = await fetch(endpoint, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(handshakeToolsList()),
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
    const body = await jsonRpcError(response);
    expect(body.error).toMatchObject({
      code: -32600,
      data: { reason: 'method_not_allowed', allow: 'GET, POST, DELETE' },
    });
    expect(body.error.message).toContain(`Method ${method} is not allowed on /mcp`);
  });

  it('refuses the method before reading the body: a PUT of broken JSON still gets 405, not a parse error', async () => {
    const response = await fetch(endpoint, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    });
    expect(response.status).toBe(405);
    expect((await jsonRpcError(response)).error.data).toMatchObject({ reason: 'method_not_allowed' });
  });

  it('answers HEAD with 405 and Allow rather than opening the event stream', async () => {
    const response = await fetch(endpoint, { method: 'HEAD', headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
  });

  it.each(['TRACE', 'PROPFIND'])('answers %s (which fetch will not send) with 405', async (method) => {
    const response = await rawHttp(endpoint, { method });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, POST, DELETE');
    expect(JSON.parse(response.body)).toMatchObject({ error: { data: { reason: 'method_not_allowed' } } });
  });

  it('leaves other paths as they were: an unknown path is still 404', async () => {
    const response = await fetch(new URL('/elsewhere', endpoint), { method: 'PUT' });
    expect(response.status).toBe(404);
    await response.text();
  });

  it('keeps serving afterwards', async () => {
    const sessionId = await openRawSession(endpoint);
    const response = await post(endpoint, handshakeToolsList(9), sessionHeaders(sessionId));
    expect(response.status).toBe(200);
    expect(await jsonRpcMessages(response)).toMatchObject([{ id: 9, result: { tools: expect.any(Array) } }]);
  });
});

describe('DELETE ends the session whatever it says about a body', () => {
  it.each([
    ['Content-Type: application/json and no body', { 'content-type': 'application/json' }, undefined],
    ['Content-Type: application/json and a broken body', { 'content-type': 'application/json' }, '{"x":'],
    ['Content-Type: text/plain and a body', { 'content-type': 'text/plain' }, 'bye'],
  ])('with %s', async (_label, headers, body) => {
    const sessionId = await openRawSession(endpoint);
    const response = await fetch(endpoint, {
      method: 'DELETE',
      headers: { ...sessionHeaders(sessionId), ...headers },
      ...(body === undefined ? {} : { body }),
    });
    expect(response.status).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(300);
    await response.text();
    await expectSessionOpen(sessionId, false);
  });

  it('for an SDK client whose custom headers include Content-Type', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
      requestInit: { headers: { 'content-type': 'application/json', 'x-team': 'kiln' } },
    });
    const client = new Client({ name: 'custom-headers', version: '1.0.0' });
    await client.connect(transport);
    const sessionId = transport.sessionId as string;
    await expectSessionOpen(sessionId, true);
    await transport.terminateSession();
    await expectSessionOpen(sessionId, false);
    await client.close();
  });
});
