// Requests broken below JSON-RPC, sent over raw sockets because fetch will not send them: a missing, repeated or
// malformed Host (the server bound to 0.0.0.0, so no Host allow-list runs first), oversized headers, conflicting
// Content-Length and Transfer-Encoding. Each gets a JSON-RPC error body with the right status, never silence, and
// the server keeps serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HANDSHAKE_VERSION,
  handshakeToolsList,
  type JsonRpcErrorBody,
  jsonRpcMessages,
  MCP_ACCEPT,
  post,
  type RunningServer,
  startHttpServer,
} from './helpers/http-server.js';
import { rawRequest, requestText, type SocketAnswer } from './helpers/raw-socket.js';

let server: RunningServer;
let port: number;
let endpoint: string;

beforeAll(async () => {
  server = await startHttpServer({ MCP_HTTP_HOST: '0.0.0.0' });
  port = Number(new URL(server.endpoint).port);
  endpoint = `http://127.0.0.1:${port}/mcp`;
});
afterAll(() => server.close());

const toolsList = JSON.stringify(handshakeToolsList());
const mcpHeaders = {
  'Content-Type': 'application/json',
  Accept: MCP_ACCEPT,
  'MCP-Protocol-Version': HANDSHAKE_VERSION,
};

function errorOf(answer: SocketAnswer): JsonRpcErrorBody {
  expect(answer.headers['content-type']).toContain('application/json');
  const body = JSON.parse(answer.body) as JsonRpcErrorBody;
  expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
  // No stack traces or file paths reach the client.
  expect(answer.body).not.toMatch(/\bat \S+ \(|\/work\/|node_modules|\.ts:\d/);
  return body;
}

async function expectStillServing(): Promise<void> {
  const response = await post(endpoint, handshakeToolsList(7), { 'mcp-protocol-version': HANDSHAKE_VERSION });
  expect(response.status).toBe(200);
  expect(await jsonRpcMessages(response)).toMatchObject([{ id: 7, result: { tools: expect.any(Array) } }]);
}

describe('a bad Host header', () => {
  it.each([
    ['a space inside', 'exa mple.com'],
    ['a path', 'example.com/mcp'],
    ['an unclosed IPv6 literal', '[::1'],
    ['a port out of range', '127.0.0.1:99999'],
    ['userinfo', 'user@127.0.0.1'],
    ['nothing', ''],
  ])('with %s gets 400 naming the Host header', async (_label, host) => {
    const answer = await rawRequest(port, requestText('POST', '/mcp', { Host: host, ...mcpHeaders }, toolsList));
    expect(answer.status).toBe(400);
    const { error } = errorOf(answer);
    expect(error).toMatchObject({ code: -32600, data: { reason: 'invalid_http_request' } });
    expect(error.message).toMatch(/Host header/);
    await expectStillServing();
  });

  it('missing from an HTTP/1.1 request gets 400 saying HTTP/1.1 requires one', async () => {
    const answer = await rawRequest(port, requestText('POST', '/mcp', mcpHeaders, toolsList));
    expect(answer.status).toBe(400);
    expect(errorOf(answer).error.message).toMatch(/Host header is missing/);
    await expectStillServing();
  });

  it('sent twice gets 400', async () => {
    const twice = requestText('POST', '/mcp', mcpHeaders, toolsList).replace(
      '\r\n',
      `\r\nHost: 127.0.0.1:${port}\r\nHost: other.example\r\n`,
    );
    const answer = await rawRequest(port, twice);
    expect(answer.status).toBe(400);
    expect(errorOf(answer).error.message).toMatch(/more than one Host/);
    await expectStillServing();
  });

  it('is not confused by an Authorization header sent twice, which gets 400 of its own', async () => {
    const twice = requestText('POST', '/mcp', { Host: `127.0.0.1:${port}`, ...mcpHeaders }, toolsList).replace(
      '\r\n',
      '\r\nAuthorization: Bearer first\r\nAuthorization: Bearer second\r\n',
    );
    const answer = await rawRequest(port, twice);
    expect(answer.status).toBe(400);
    const { error } = errorOf(answer);
    expect(error).toMatchObject({ code: -32600, data: { reason: 'invalid_http_request' } });
    expect(error.message).toMatch(/more than one Authorization header; send exactly one/);
    await expectStillServing();
  });

  it('is refused on every path, the landing page too', async () => {
    const answer = await rawRequest(port, requestText('GET', '/', { Host: 'bad host' }));
    expect(answer.status).toBe(400);
    expect(errorOf(answer).error.data).toMatchObject({ reason: 'invalid_http_request' });
  });

  it('does not stop a well-formed Host from being served', async () => {
    const answer = await rawRequest(port, requestText('GET', '/healthz', { Host: `127.0.0.1:${port}` }));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok' });
  });
});

describe("what Node's HTTP parser refuses", () => {
  it('answers headers over the size limit with 431 and a JSON-RPC body, then closes', async () => {
    const answer = await rawRequest(
      port,
      requestText('POST', '/mcp', { Host: `127.0.0.1:${port}`, 'X-Padding': 'a'.repeat(60 * 1024), ...mcpHeaders }),
    );
    expect(answer.status).toBe(431);
    const { error } = errorOf(answer);
    expect(error).toMatchObject({ code: -32600, data: { reason: 'invalid_http_request' } });
    expect(error.message).toMatch(/header fields too large/i);
    await expectStillServing();
  });

  it('answers Content-Length together with Transfer-Encoding with 400 and a JSON-RPC body, then closes', async () => {
    const smuggled =
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      'Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n';
    const answer = await rawRequest(port, smuggled);
    expect(answer.status).toBe(400);
    const { error } = errorOf(answer);
    expect(error.data).toMatchObject({ reason: 'invalid_http_request' });
    expect(error.message).toMatch(/Content-Length can't be present with Transfer-Encoding/);
    await expectStillServing();
  });

  it('answers a request line that is not HTTP with 400 and a JSON-RPC body', async () => {
    const answer = await rawRequest(port, 'HELLO THERE\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(errorOf(answer).error.data).toMatchObject({ reason: 'invalid_http_request' });
    await expectStillServing();
  });
});

describe('a server bound to loopback', () => {
  it('answers a malformed Host with 400 before its Host allow-list answers 403', async () => {
    const loopback = await startHttpServer();
    try {
      const loopbackPort = Number(new URL(loopback.endpoint).port);
      const answer = await rawRequest(
        loopbackPort,
        requestText('POST', '/mcp', { Host: 'exa mple', ...mcpHeaders }, toolsList),
      );
      expect(answer.status).toBe(400);
      expect(errorOf(answer).error.data).toMatchObject({ reason: 'invalid_http_request' });
    } finally {
      await loopback.close();
    }
  });
});
