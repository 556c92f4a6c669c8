// 2025 sessions over real HTTP (spec §2.2): ids on initialize, ctx.sessionId, DELETE and 404 after the end, the
// three session modes, idle eviction that spares sessions with an open stream, the session cap, and 2026-07-28
// requests that never get a session.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manualClock } from '../storage/storage-test-helpers.js';
import {
  connectClient,
  type Era,
  type HttpClient,
  handshakeToolsList,
  initializeRequest,
  jsonRpcError,
  jsonRpcMessages,
  openRawSession,
  post,
  type RunningServer,
  sessionHeaders,
  startHttpServer,
} from './helpers/http-server.js';

const VISIBLE_ASCII = /^[\x21-\x7E]+$/;

let server: RunningServer | undefined;
const clients: HttpClient[] = [];

async function start(env: Record<string, string> = {}, now?: () => number): Promise<RunningServer> {
  server = await startHttpServer(env, now ? { now } : {});
  return server;
}

async function connect(era: Era): Promise<HttpClient> {
  const connected = await connectClient((server as RunningServer).endpoint, era);
  clients.push(connected);
  return connected;
}

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map(({ client }) => client.close()));
  await server?.close();
  server = undefined;
});

async function whoami({ client }: HttpClient) {
  const result = await client.callTool({ name: 'probe_whoami', arguments: {} });
  expect(result.isError).toBeFalsy();
  return result.structuredContent as { sessionId: string | null; era: string };
}

const deleteSession = (endpoint: string, sessionId: string) =>
  fetch(endpoint, { method: 'DELETE', headers: sessionHeaders(sessionId) });

async function expectSessionGone(response: Response): Promise<void> {
  expect(response.status).toBe(404);
  const body = await jsonRpcError(response);
  expect(body.error.code).toBe(-32001);
  expect(body.error.message).toMatch(/Session not found/);
}

describe('2025 stateful sessions', () => {
  it('issues a visible-ASCII Mcp-Session-Id on initialize and exposes it as ctx.sessionId', async () => {
    await start({ MCP_SESSION_MODE: 'stateful' });
    const connected = await connect('handshake');
    const sessionId = connected.transport.sessionId;
    expect(sessionId).toMatch(VISIBLE_ASCII);

    expect(await whoami(connected)).toEqual({ sessionId, era: 'handshake' });
    // A second request on the same session sees the same id; a second client gets a session of its own.
    expect(await whoami(connected)).toEqual({ sessionId, era: 'handshake' });
    const other = await connect('handshake');
    expect(other.transport.sessionId).not.toBe(sessionId);
    expect(await whoami(other)).toEqual({ sessionId: other.transport.sessionId, era: 'handshake' });
  });

  it('ends a session on DELETE (2xx) and answers every later request with that id with 404', async () => {
    const { endpoint } = await start({ MCP_SESSION_MODE: 'stateful' });
    const sessionId = await openRawSession(endpoint);
    const listed = await post(endpoint, handshakeToolsList(), sessionHeaders(sessionId));
    expect(listed.status).toBe(200);
    await listed.text();

    const deleted = await deleteSession(endpoint, sessionId);
    expect(deleted.status).toBeGreaterThanOrEqual(200);
    expect(deleted.status).toBeLessThan(300);
    await deleted.text();

    await expectSessionGone(await post(endpoint, handshakeToolsList(3), sessionHeaders(sessionId)));
    await expectSessionGone(
      await fetch(endpoint, { headers: { accept: 'text/event-stream', ...sessionHeaders(sessionId) } }),
    );
    await expectSessionGone(await deleteSession(endpoint, sessionId));
    expect((server as RunningServer).serving.liveSessions()).toBe(0);
  });

  it('ends the session an SDK client terminates', async () => {
    const { endpoint } = await start({ MCP_SESSION_MODE: 'stateful' });
    const connected = await connect('handshake');
    const sessionId = connected.transport.sessionId as string;
    await connected.transport.terminateSession();
    await expectSessionGone(await post(endpoint, handshakeToolsList(), sessionHeaders(sessionId)));
  });

  it('answers an unknown session id with 404', async () => {
    const { endpoint } = await start({ MCP_SESSION_MODE: 'stateful' });
    await expectSessionGone(await post(endpoint, handshakeToolsList(), sessionHeaders('no-such-session')));
  });

  it('rejects a non-initialize request without Mcp-Session-Id with 400 naming the header', async () => {
    const { endpoint } = await start({ MCP_SESSION_MODE: 'stateful' });
    const response = await post(endpoint, handshakeToolsList(), { 'mcp-protocol-version': '2025-11-25' });
    expect(response.status).toBe(400);
    const body = await jsonRpcError(response);
    expect(body.error.message).toContain('Mcp-Session-Id');
    expect(response.headers.get('mcp-session-id')).toBeNull();
  });
});

describe('2025 session modes', () => {
  it('auto: serves a request without a session id statelessly', async () => {
    const { endpoint } = await start({ MCP_SESSION_MODE: 'auto' });
    const response = await post(endpoint, handshakeToolsList(7), { 'mcp-protocol-version': '2025-11-25' });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const [message] = (await jsonRpcMessages(response)) as [{ id: number; result: { tools: { name: string }[] } }];
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 7 });
    const tools = message.result.tools.map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['probe_whoami', 'notes_create_note']));
    expect((server as RunningServer).serving.liveSessions()).toBe(0);
  });

  it('auto: still opens a session for a client that initializes', async () => {
    await start({ MCP_SESSION_MODE: 'auto' });
    const connected = await connect('handshake');
    expect(connected.transport.sessionId).toMatch(VISIBLE_ASCII);
    expect(await whoami(connected)).toEqual({ sessionId: connected.transport.sessionId, era: 'handshake' });
  });

  it('stateless: initialize returns no session id, GET gets 405, and an SDK client still works', async () => {
    const { endpoint } = await start({ MCP_SESSION_MODE: 'stateless' });
    const initialized = await post(endpoint, initializeRequest());
    expect(initialized.status).toBe(200);
    expect(initialized.headers.get('mcp-session-id')).toBeNull();
    const [message] = await jsonRpcMessages(initialized);
    expect(message).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });

    const stream = await fetch(endpoint, {
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    });
    expect(stream.status).toBe(405);
    await stream.body?.cancel();

    const connected = await connect('handshake');
    expect(connected.transport.sessionId).toBeUndefined();
    expect(await whoami(connected)).toEqual({ sessionId: null, era: 'handshake' });
    expect((server as RunningServer).serving.liveSessions()).toBe(0);
  });
});

describe('idle eviction', () => {
  it('evicts an idle session but keeps one whose GET stream is open, until the stream closes', async () => {
    // Idleness is measured on the host's clock; the sweep itself runs on a real timer (every 100 ms here). Time
    // passes in steps past the timeout until the sweep leaves `live` sessions: the host also touches a session when
    // a response or stream ends, at a moment the test cannot see. The count is watched, since a request would touch.
    const clock = manualClock();
    const { endpoint, serving } = await start(
      { MCP_SESSION_MODE: 'stateful', MCP_STATEFUL_SESSION_STALE_TIMEOUT_MS: '200' },
      clock.now,
    );
    const idleUntil = (live: number) =>
      vi.waitFor(() => {
        clock.advanceMs(600);
        expect(serving.liveSessions()).toBe(live);
      });
    const idle = await openRawSession(endpoint);
    const streaming = await openRawSession(endpoint);
    const listening = new AbortController();
    const stream = await fetch(endpoint, {
      headers: { accept: 'text/event-stream', ...sessionHeaders(streaming) },
      signal: listening.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');

    await idleUntil(1);
    await expectSessionGone(await post(endpoint, handshakeToolsList(), sessionHeaders(idle)));
    const stillThere = await post(endpoint, handshakeToolsList(), sessionHeaders(streaming));
    expect(stillThere.status).toBe(200);
    await stillThere.text();

    // The stream is what kept it: once it closes, the session idles out like any other.
    listening.abort();
    await idleUntil(0);
    await expectSessionGone(await post(endpoint, handshakeToolsList(), sessionHeaders(streaming)));
  });
});

describe('session cap', () => {
  it('refuses initialize past MCP_HTTP_MAX_SESSIONS with 503 session_limit, and admits again after a DELETE', async () => {
    const { endpoint } = await start({
      MCP_SESSION_MODE: 'stateful',
      MCP_HTTP_MAX_SESSIONS: '2',
      MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL: '2',
      MCP_HTTP_TRUST_PROXY: 'true',
    });
    const first = await openRawSession(endpoint);
    await openRawSession(endpoint);

    // Another caller: the first one, at its share, would have its own oldest idle session ended instead.
    const refused = await post(endpoint, initializeRequest(), { 'x-forwarded-for': '192.0.2.1' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = await jsonRpcError(refused);
    expect(body.error.data).toEqual({
      reason: 'session_limit',
      limit: 2,
      share: 'instance',
      recovery: { hint: expect.any(String) },
    });
    expect(body.error.message).toMatch(/Session limit reached \(2 live sessions\)/);

    const deleted = await deleteSession(endpoint, first);
    expect(deleted.ok).toBe(true);
    await deleted.text();
    const admitted = await openRawSession(endpoint);
    expect(admitted).toMatch(VISIBLE_ASCII);
    expect((server as RunningServer).serving.liveSessions()).toBe(2);
  });
});

describe('2026-07-28 requests', () => {
  it('never get a session: two interleaving clients are each served per request', async () => {
    const { endpoint } = await start();
    const seen: (string | null)[] = [];
    const recordSessionHeader: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      seen.push(response.headers.get('mcp-session-id'));
      return response;
    };
    const open = async () => {
      const connected = await connectClient(endpoint, 'envelope', { fetch: recordSessionHeader });
      clients.push(connected);
      return connected;
    };
    const [a, b] = await Promise.all([open(), open()]);

    // A's slow call is still running while B creates a note and A reads it back: nothing ties a request to a client.
    const slow = a.client.callTool({ name: 'probe_slow', arguments: { ms: 150 } });
    const created = await b.client.callTool({ name: 'notes_create_note', arguments: { title: 'Shared', body: 'x' } });
    const { id } = created.structuredContent as { id: string };
    const read = await a.client.callTool({ name: 'notes_get_note', arguments: { id } });
    expect(read.structuredContent).toMatchObject({ id, title: 'Shared' });
    expect((await slow).structuredContent).toEqual({ sleptMs: 150 });
    expect(await whoami(a)).toEqual({ sessionId: null, era: 'envelope' });
    expect(await whoami(b)).toEqual({ sessionId: null, era: 'envelope' });

    expect(a.transport.sessionId).toBeUndefined();
    expect(b.transport.sessionId).toBeUndefined();
    // Two discover probes and five calls, each answered without Mcp-Session-Id.
    expect(seen.length).toBeGreaterThanOrEqual(7);
    expect(seen.every((header) => header === null)).toBe(true);
    expect((server as RunningServer).serving.liveSessions()).toBe(0);
  });
});
