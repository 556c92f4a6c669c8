// Each principal's share of this instance's caps, over real HTTP: one caller flooding sessions, listen streams or
// requests in flight gets its own oldest idle session ended or a 429, and another caller keeps getting all three.
// Without auth the principal is the caller's address (here from X-Forwarded-For, the instance trusting its proxy);
// with auth it is the token's client, subject and tenant.
import { startTestIssuer, type TestIssuer } from 'mcp-kiln/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AuthServer, bearer, RESOURCE, startAuthServer } from './helpers/auth-server.js';
import {
  HANDSHAKE_VERSION,
  handshakeToolsList,
  jsonRpcError,
  post,
  type RunningServer,
  sessionHeaders,
  startHttpServer,
} from './helpers/http-server.js';
import {
  from,
  holdStream,
  initialize,
  listen,
  open,
  openSession,
  slowCall,
  toolsListStatus,
} from './helpers/share-clients.js';

const FLOODER = from('203.0.113.7');
const NEIGHBOUR = from('198.51.100.20');

let server: RunningServer | undefined;

afterEach(async () => {
  for (const abort of open.splice(0)) abort.abort();
  await server?.close();
  server = undefined;
});

async function start(env: Record<string, string>): Promise<RunningServer> {
  server = await startHttpServer({ MCP_HTTP_TRUST_PROXY: 'true', MCP_SESSION_MODE: 'stateful', ...env });
  return server;
}

describe('sessions: a share of MCP_HTTP_MAX_SESSIONS per principal', () => {
  it('ends the flooder’s own oldest idle sessions: 25 initializes leave it 4 of 20 slots, the neighbour opens its own', async () => {
    const { endpoint, serving } = await start({
      MCP_HTTP_MAX_SESSIONS: '20',
      MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL: '4',
    });
    const neighbours = [await openSession(endpoint, NEIGHBOUR), await openSession(endpoint, NEIGHBOUR)];
    const flooded: string[] = [];
    for (let i = 0; i < 25; i++) flooded.push(await openSession(endpoint, FLOODER));
    expect(serving.liveSessions()).toBe(6);

    // The four newest of the flooder's live on; the older ones were ended, not just dropped here.
    for (const sessionId of flooded.slice(-4)) expect(await toolsListStatus(endpoint, FLOODER, sessionId)).toBe(200);
    for (const sessionId of flooded.slice(0, 21)) expect(await toolsListStatus(endpoint, FLOODER, sessionId)).toBe(404);
    // Never another principal's.
    for (const sessionId of neighbours) expect(await toolsListStatus(endpoint, NEIGHBOUR, sessionId)).toBe(200);
    neighbours.push(await openSession(endpoint, NEIGHBOUR), await openSession(endpoint, NEIGHBOUR));
    expect(serving.liveSessions()).toBe(8);
  });

  it('refuses the flooder with 429 session_limit when every session of its share is busy, and no one else', async () => {
    const { endpoint } = await start({ MCP_HTTP_MAX_SESSIONS: '20', MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL: '2' });
    for (let i = 0; i < 2; i++) await holdStream(endpoint, FLOODER, await openSession(endpoint, FLOODER));

    const { response, sessionId } = await initialize(endpoint, FLOODER);
    expect(sessionId).toBeUndefined();
    expect(response.status).toBe(429);
    const { error } = await jsonRpcError(response);
    expect(error).toMatchObject({
      code: -32000,
      data: { reason: 'session_limit', limit: 2, share: 'principal', recovery: { hint: expect.any(String) } },
    });
    expect(error.message).toMatch(/DELETE/);

    const neighbour = await openSession(endpoint, NEIGHBOUR);
    expect(await toolsListStatus(endpoint, NEIGHBOUR, neighbour)).toBe(200);
  });

  it('keeps the instance-wide cap a 503 for a caller within its share', async () => {
    const { endpoint } = await start({ MCP_HTTP_MAX_SESSIONS: '3', MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL: '2' });
    for (let i = 0; i < 3; i++) await openSession(endpoint, from(`192.0.2.${i + 1}`));
    const { response } = await initialize(endpoint, NEIGHBOUR);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect((await jsonRpcError(response)).error.data).toMatchObject({ reason: 'session_limit', share: 'instance' });
  });
});

describe('listen streams: a share of MCP_HTTP_MAX_LISTEN_STREAMS per principal', () => {
  it('refuses the flooder’s fourth listen with 429 while the neighbour opens three of its own', async () => {
    const { endpoint } = await start({
      MCP_HTTP_MAX_LISTEN_STREAMS: '10',
      MCP_HTTP_MAX_LISTEN_STREAMS_PER_PRINCIPAL: '3',
    });
    for (let i = 0; i < 3; i++) expect((await listen(endpoint, FLOODER)).status).toBe(200);
    const refused = await listen(endpoint, FLOODER);
    expect(refused.status).toBe(429);
    expect((await jsonRpcError(refused)).error).toMatchObject({
      code: -32000,
      data: { reason: 'listen_limit', limit: 3, share: 'principal' },
    });
    for (let i = 0; i < 3; i++) expect((await listen(endpoint, NEIGHBOUR)).status).toBe(200);
  });

  it('gives the slot back when the stream closes', async () => {
    const { endpoint } = await start({ MCP_HTTP_MAX_LISTEN_STREAMS_PER_PRINCIPAL: '1' });
    expect((await listen(endpoint, FLOODER)).status).toBe(200);
    expect((await listen(endpoint, FLOODER)).status).toBe(429);
    (open[0] as AbortController).abort();
    await vi.waitFor(async () => {
      const again = await listen(endpoint, FLOODER);
      expect(again.status).toBe(200);
    });
  });
});

describe('requests in flight: MCP_MAX_IN_FLIGHT_PER_PRINCIPAL', () => {
  it('refuses the flooder’s third call before it runs, serves the neighbour, and frees slots as calls end', async () => {
    const { endpoint, app } = await start({ MCP_MAX_IN_FLIGHT_PER_PRINCIPAL: '2' });
    const running = [new AbortController(), new AbortController()];
    const calls = running.map((abort) => slowCall(endpoint, FLOODER, 3_000, abort).catch(() => undefined));
    await vi.waitFor(() => expect(app.inFlight).toBe(2));

    const refused = await slowCall(endpoint, FLOODER, 0);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    const body = await jsonRpcError(refused);
    expect(body.id).toBe(1);
    expect(body.error).toMatchObject({ code: -32004, data: { reason: 'in_flight_limit', limit: 2 } });
    expect(body.error.message).toMatch(/was not run/);
    expect(app.inFlight).toBe(2);

    const neighbour = await slowCall(endpoint, NEIGHBOUR, 0);
    expect(neighbour.status).toBe(200);
    expect(JSON.parse(await neighbour.text())).toMatchObject({ result: { structuredContent: { sleptMs: 0 } } });

    for (const abort of running) abort.abort();
    await Promise.all(calls);
    await vi.waitFor(async () => {
      const again = await slowCall(endpoint, FLOODER, 0);
      expect(again.status).toBe(200);
      await again.text();
    });
  });

  it('counts 2025 requests too, and never notifications or a client’s answers', async () => {
    const { endpoint } = await start({ MCP_MAX_IN_FLIGHT_PER_PRINCIPAL: '1' });
    const sessionId = await openSession(endpoint, FLOODER);
    const headers = { ...FLOODER, ...sessionHeaders(sessionId) };
    const call = post(
      endpoint,
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'probe_slow', arguments: { ms: 3_000 } } },
      headers,
    );
    await vi.waitFor(async () => {
      const refused = await post(endpoint, handshakeToolsList(10), headers);
      expect(refused.status).toBe(429);
      await refused.text();
    });
    const notification = await post(endpoint, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, headers);
    expect(notification.status).toBe(202);
    const ended = await fetch(endpoint, {
      method: 'DELETE',
      headers: { ...headers, 'mcp-protocol-version': HANDSHAKE_VERSION },
    });
    expect(ended.status).toBe(200);
    await call.then((response) => response.text()).catch(() => undefined);
  });
});

describe('with auth, the principal is the token’s', () => {
  let issuer: TestIssuer;
  let authed: AuthServer;
  beforeAll(async () => {
    issuer = await startTestIssuer({ audience: RESOURCE });
    authed = await startAuthServer(issuer, {
      MCP_SESSION_MODE: 'stateful',
      MCP_HTTP_MAX_SESSIONS: '10',
      MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL: '3',
    });
  });
  afterAll(async () => {
    await authed?.close();
    await issuer?.close();
  });

  it('bounds one subject to its share while a colleague of the same tenant and client opens sessions', async () => {
    const alice = bearer(await issuer.mintToken({ sub: 'alice', tenant: 'acme', clientId: 'desk' }));
    const bob = bearer(await issuer.mintToken({ sub: 'bob', tenant: 'acme', clientId: 'desk' }));
    for (let i = 0; i < 12; i++) await openSession(authed.endpoint, alice);
    expect(authed.serving.liveSessions()).toBe(3);
    const bobs = [await openSession(authed.endpoint, bob), await openSession(authed.endpoint, bob)];
    for (const sessionId of bobs) expect(await toolsListStatus(authed.endpoint, bob, sessionId)).toBe(200);
    expect(authed.serving.liveSessions()).toBe(5);
  });
});
