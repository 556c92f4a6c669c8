// Bounded waits (MCP_HTTP_*_TIMEOUT_MS) and bounded holdings (MCP_HTTP_MAX_CONNECTIONS, MCP_HTTP_MAX_LISTEN_STREAMS)
// over real sockets, with small limits: a client that dribbles its headers, never finishes its body or never speaks
// is cut off with a 408 JSON-RPC error once its time is up, while event streams and long calls, which are responses,
// outlive every one of those limits as long as their keep-alives flow.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  envelopeHeaders,
  envelopeRequest,
  HANDSHAKE_VERSION,
  handshakeToolsList,
  jsonRpcMessages,
  MCP_ACCEPT,
  openRawSession,
  post,
  type RunningServer,
  sessionHeaders,
  startHttpServer,
} from './helpers/http-server.js';
import { type NotifyingServer, startNotifyingServer } from './helpers/notifying-server.js';
import { openListenStream, RawHandshakeSession, StreamRefused } from './helpers/raw-mcp-http.js';
import { openRaw, type SocketAnswer } from './helpers/raw-socket.js';
import { frameMethod, type SseStream } from './helpers/sse-frames.js';

const HEADERS_MS = 300;
const REQUEST_MS = 600;
const IDLE_MS = 800;
const KEEP_ALIVE_MS = 500;
const SHORT_LIMITS = {
  MCP_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
  MCP_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
  MCP_HTTP_IDLE_TIMEOUT_MS: String(IDLE_MS),
  MCP_HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
  MCP_HTTP_SSE_KEEP_ALIVE_MS: '100',
};
/** Longer than every limit above. */
const OUTLAST_MS = 1_500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectTimedOut(answer: SocketAnswer, limitMs: number): void {
  expect(answer.status).toBe(408);
  expect(answer.headers['content-type']).toContain('application/json');
  expect(JSON.parse(answer.body)).toMatchObject({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32005, data: { reason: 'request_timeout' } },
  });
  // Cut off after its limit, plus Node's check interval and some scheduling slack; never left hanging.
  expect(answer.closedAfterMs).toBeGreaterThanOrEqual(limitMs - 50);
  expect(answer.closedAfterMs).toBeLessThan(limitMs + 1_000);
}

describe('slow and silent clients', () => {
  let server: RunningServer;
  let port: number;
  const head = (extra = '') =>
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: ${MCP_ACCEPT}\r\n${extra}`;

  beforeAll(async () => {
    server = await startHttpServer(SHORT_LIMITS);
    port = Number(new URL(server.endpoint).port);
  });
  afterAll(() => server.close());

  async function expectStillServing(): Promise<void> {
    const response = await post(server.endpoint, handshakeToolsList(5), { 'mcp-protocol-version': HANDSHAKE_VERSION });
    expect(response.status).toBe(200);
    expect(await jsonRpcMessages(response)).toMatchObject([{ id: 5, result: { tools: expect.any(Array) } }]);
  }

  it('cuts off a client sending its headers a byte at a time after MCP_HTTP_HEADERS_TIMEOUT_MS', async () => {
    const connection = await openRaw(port);
    connection.dribble(`${head()}X-Slow: ${'a'.repeat(200)}\r\n\r\n`, 20);
    expectTimedOut(await connection.closed(), HEADERS_MS);
    await expectStillServing();
  });

  it('cuts off a client that never finishes its body after MCP_HTTP_REQUEST_TIMEOUT_MS', async () => {
    const connection = await openRaw(port, `${head('Content-Length: 1000\r\n')}\r\n{"jsonrpc":"2.0",`);
    connection.dribble(' '.repeat(100), 50);
    expectTimedOut(await connection.closed(), REQUEST_MS);
    await expectStillServing();
  });

  it('cuts off a connection that never sends a byte after MCP_HTTP_HEADERS_TIMEOUT_MS', async () => {
    const connection = await openRaw(port);
    expectTimedOut(await connection.closed(), HEADERS_MS);
  });

  it('closes an idle keep-alive connection after MCP_HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const connection = await openRaw(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const answer = await connection.closed();
    expect(answer.status).toBe(200);
    // Node keeps the socket a further second past the advertised timeout, so a client reusing it at the last moment
    // does not race the close.
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 50);
    expect(answer.closedAfterMs).toBeLessThan(KEEP_ALIVE_MS + 2_000);
  });

  it('lets a 2025 session call outlast every limit: its response stream carries keep-alives', async () => {
    const sessionId = await openRawSession(server.endpoint);
    const call = { name: 'probe_slow', arguments: { ms: OUTLAST_MS } };
    const response = await post(
      server.endpoint,
      { jsonrpc: '2.0', id: 8, method: 'tools/call', params: call },
      sessionHeaders(sessionId),
    );
    expect(response.status).toBe(200);
    const messages = await jsonRpcMessages(response);
    expect(messages.at(-1)).toMatchObject({ id: 8, result: { structuredContent: { sleptMs: OUTLAST_MS } } });
  });

  it('lets a 2026-07-28 call outlast every limit', async () => {
    const response = await post(
      server.endpoint,
      envelopeRequest('tools/call', { name: 'probe_slow', arguments: { ms: OUTLAST_MS } }, { id: 9 }),
      { ...envelopeHeaders('tools/call'), 'mcp-name': 'probe_slow' },
    );
    expect(response.status).toBe(200);
    const messages = await jsonRpcMessages(response);
    expect(messages.at(-1)).toMatchObject({ id: 9, result: { structuredContent: { sleptMs: OUTLAST_MS } } });
  });
});

describe('event streams under the same limits', () => {
  let server: NotifyingServer;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    server = await startNotifyingServer({
      ...SHORT_LIMITS,
      MCP_HTTP_MAX_LISTEN_STREAMS: '2',
      MCP_HTTP_MAX_LISTEN_STREAMS_PER_PRINCIPAL: '2',
    });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await server.close();
  });

  const listen = async (id: string) => {
    const stream = await openListenStream(server.endpointUrl, { toolsListChanged: true }, id);
    streams.push(stream);
    expect(frameMethod(await stream.next())).toBe('notifications/subscriptions/acknowledged');
    return stream;
  };

  it('keeps a 2025 GET stream open past every limit, still delivering notifications', async () => {
    const session = await RawHandshakeSession.open(server.endpointUrl);
    const stream = await session.openStream();
    streams.push(stream);
    await sleep(OUTLAST_MS);
    server.notifier.toolsChanged();
    expect(frameMethod(await stream.next())).toBe('notifications/tools/list_changed');
  });

  it('keeps a 2026-07-28 listen stream open past every limit, still delivering notifications', async () => {
    const stream = await listen('outlast');
    await sleep(OUTLAST_MS);
    server.notifier.toolsChanged();
    expect(frameMethod(await stream.next())).toBe('notifications/tools/list_changed');
    stream.close();
  });

  it('refuses a listen stream past MCP_HTTP_MAX_LISTEN_STREAMS with 503, and admits one again after a close', async () => {
    const first = await listen('first');
    await listen('second');
    const refused = await openListenStream(server.endpointUrl, { toolsListChanged: true }, 'third').catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StreamRefused);
    const { status, body } = refused as StreamRefused;
    expect(status).toBe(503);
    expect(JSON.parse(body)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, data: { reason: 'listen_limit', limit: 2 } },
    });

    first.close();
    await vi.waitFor(() => listen('fourth'), { timeout: 3_000, interval: 50 });
  });
});

describe('MCP_HTTP_MAX_CONNECTIONS', () => {
  it('closes connections past the cap at once, and accepts again once one closes', async () => {
    const server = await startHttpServer({ MCP_HTTP_MAX_CONNECTIONS: '3' });
    const port = Number(new URL(server.endpoint).port);
    try {
      const held = await Promise.all([openRaw(port), openRaw(port), openRaw(port)]);
      await sleep(50);
      const extra = await openRaw(port);
      const refused = await extra.closed(1_000);
      expect(refused.status).toBe(0);

      for (const connection of held) connection.socket.destroy();
      await vi.waitFor(
        async () => {
          const response = await fetch(new URL('/healthz', server.endpoint));
          expect(response.status).toBe(200);
          await response.text();
        },
        { timeout: 3_000, interval: 50 },
      );
    } finally {
      await server.close();
    }
  });
});
