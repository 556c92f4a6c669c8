// A 2025 session counts against MCP_HTTP_MAX_SESSIONS only once its initialize succeeded. An initialize refused for
// its Accept header is refused by Kiln itself, as the SDK's transport would refuse it, before a session exists: a
// flood of them leaves the cap free for real clients.
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectClient,
  envelopeHeaders,
  envelopeRequest,
  HANDSHAKE_VERSION,
  type HttpClient,
  handshakeToolsList,
  initializeRequest,
  jsonRpcError,
  jsonRpcMessages,
  post,
  type RunningServer,
  startHttpServer,
} from './helpers/http-server.js';

const CAP = 5;

let server: RunningServer | undefined;
const clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map(({ client }) => client.close()));
  await server?.close();
  server = undefined;
});

async function start(): Promise<RunningServer> {
  server = await startHttpServer({
    MCP_SESSION_MODE: 'auto',
    MCP_HTTP_MAX_SESSIONS: String(CAP),
    MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL: String(CAP),
  });
  return server;
}

describe('refused initializes hold no session slot', () => {
  it.each([
    ['*/*', '*/*'],
    ['application/json only', 'application/json'],
    ['text/event-stream only', 'text/event-stream'],
    ['wildcards by type', 'application/*, text/*'],
  ])('answers Accept: %s with Kiln 406 and opens no session', async (_label, accept) => {
    const { endpoint, serving } = await start();
    const response = await post(endpoint, initializeRequest(), { accept });
    expect(response.status).toBe(406);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const body = await jsonRpcError(response);
    expect(body.error).toMatchObject({ code: -32600, data: { reason: 'not_acceptable' } });
    expect(serving.liveSessions()).toBe(0);
  });

  it('lets real clients in after more refused initializes than the cap', async () => {
    const { endpoint, serving } = await start();
    const refused = await Promise.all(
      Array.from({ length: CAP * 3 }, (_, index) => post(endpoint, initializeRequest(index + 1), { accept: '*/*' })),
    );
    for (const response of refused) {
      expect(response.status).toBe(406);
      await response.text();
    }
    expect(serving.liveSessions()).toBe(0);

    for (let opened = 0; opened < CAP; opened++) clients.push(await connectClient(endpoint, 'handshake'));
    expect(serving.liveSessions()).toBe(CAP);
    const { tools } = await (clients[0] as HttpClient).client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('probe_whoami');
  });

  it('gives the same 406 to a sessionless 2025 request, so no era sees the SDK refuse it', async () => {
    const { endpoint } = await start();
    const response = await post(endpoint, handshakeToolsList(), {
      accept: '*/*',
      'mcp-protocol-version': HANDSHAKE_VERSION,
    });
    expect(response.status).toBe(406);
    expect((await jsonRpcError(response)).error.data).toMatchObject({ reason: 'not_acceptable' });
  });

  it('still serves a 2026-07-28 request that accepts */*, as the SDK handler does', async () => {
    const { endpoint } = await start();
    const response = await post(endpoint, envelopeRequest('tools/list', {}, { id: 4 }), {
      ...envelopeHeaders('tools/list'),
      accept: '*/*',
    });
    expect(response.status).toBe(200);
    expect(await jsonRpcMessages(response)).toMatchObject([{ id: 4, result: { tools: expect.any(Array) } }]);
  });
});
