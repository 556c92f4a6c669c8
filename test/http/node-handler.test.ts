// nodeHandler: the MCP endpoint in servers that are not Fastify. Express 5 after express.json() (a body it already
// parsed is taken as it is, and still checked), mounted with app.use both ways, beside the application's own routes
// and 404; plain node:http; Koa 3. Both protocol eras through the official SDK client.
import { createServer, type Server } from 'node:http';
import express from 'express';
import Koa from 'koa';
import { createApp, type KilnApp } from 'mcp-kiln';
import { nodeHandler } from 'mcp-kiln/http';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpFixtureModule } from './helpers/http-fixture.module.js';
import { connectHttpClient } from './helpers/http-sdk-client.js';
import { connectClient, type Era, envelopeHeaders, envelopeRequest, MCP_ACCEPT, post } from './helpers/http-server.js';

const ENV = { MCP_LOG_LEVEL: 'error' };
const ERAS: readonly Era[] = ['handshake', 'envelope'];

const opened: { app: KilnApp; server: Server }[] = [];
afterEach(async () => {
  for (const { app, server } of opened.splice(0)) {
    await app.close();
    // Idle keep-alive sockets of the test's clients would hold close() for their own timeout.
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listening(app: KilnApp, server: Server): Promise<string> {
  opened.push({ app, server });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

const newApp = () => createApp(HttpFixtureModule, { serve: false, env: ENV });

async function callWhoAmI(endpoint: string, era: Era) {
  const { client } = await connectClient(endpoint, era);
  try {
    return (await client.callTool({ name: 'probe_whoami', arguments: {} })).structuredContent;
  } finally {
    await client.close();
  }
}

describe('nodeHandler in Express 5', () => {
  async function expressApp(mount: 'root' | 'path') {
    const app = await newApp();
    const web = express();
    web.use(express.json());
    web.get('/status', (_request, response) => {
      response.json({ up: true });
    });
    if (mount === 'root') web.use(nodeHandler(app, { prefix: '/mcp' }));
    else web.use('/mcp', nodeHandler(app, { prefix: '/mcp' }));
    return listening(app, createServer(web));
  }

  it.each(ERAS)('serves the SDK client after express.json(), beside its routes and 404 (%s era)', async (era) => {
    const origin = await expressApp('root');
    expect(await callWhoAmI(`${origin}/mcp`, era)).toMatchObject({ era });
    expect(await (await fetch(`${origin}/status`)).json()).toEqual({ up: true });
    // The probes sit beside the endpoint, as with kilnFastify.
    const ready = await fetch(`${origin}/mcp/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
    // A path Kiln does not serve goes on to Express, whose own 404 answers.
    const missing = await fetch(`${origin}/nowhere`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Cannot GET /nowhere');
  });

  it.each(ERAS)('serves when mounted at a path, which Express strips from req.url (%s era)', async (era) => {
    const origin = await expressApp('path');
    expect(await callWhoAmI(`${origin}/mcp`, era)).toMatchObject({ era });
  });

  it('still refuses a prototype key in a body express.json() parsed, and stays up', async () => {
    const origin = await expressApp('root');
    const polluted = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"probe_whoami","arguments":{"__proto__":{"admin":true}}}}`;
    const refused = await post(`${origin}/mcp`, polluted, {
      ...envelopeHeaders('tools/call'),
      'mcp-name': 'probe_whoami',
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { data: { reason: string } } }).error.data.reason).toBe('forbidden_key');
    const listed = await post(`${origin}/mcp`, envelopeRequest('tools/list'), envelopeHeaders('tools/list'));
    expect(listed.status).toBe(200);
  });

  it('leaves malformed JSON to the parser that reads it first, and stays up', async () => {
    const origin = await expressApp('root');
    const broken = await post(`${origin}/mcp`, '{"jsonrpc":', envelopeHeaders('tools/list'));
    // express.json() reads it first and answers 400 through Express.
    expect(broken.status).toBe(400);
    expect(await callWhoAmI(`${origin}/mcp`, 'envelope')).toMatchObject({ era: 'envelope' });
  });

  it("opens a 2025 session's event stream through Express and ends the session with DELETE", async () => {
    const origin = await expressApp('root');
    const connected = await connectHttpClient(`${origin}/mcp`, 'handshake');
    // The SDK client opens the session's GET event stream itself once initialized.
    await connected.streamOpen;
    const sessionId = (connected.client.transport as { sessionId?: string } | undefined)?.sessionId;
    expect(sessionId).toBeTruthy();
    expect((await connected.client.listTools()).tools.length).toBeGreaterThan(0);
    await (connected.client.transport as unknown as { terminateSession(): Promise<void> }).terminateSession();
    await connected.close();
    const after = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: MCP_ACCEPT,
        'mcp-session-id': sessionId!,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });
});

describe('nodeHandler before the application body parser', () => {
  it("leaves other paths' bodies unread, so the application's own routes still get them", async () => {
    const app = await newApp();
    const web = express();
    // As NestJS on Express mounts it: the handler first, the JSON parser after.
    web.use(nodeHandler(app, { prefix: '/mcp' }));
    web.use(express.json());
    web.post('/orders', (request, response) => {
      response.json({ received: request.body });
    });
    const origin = await listening(app, createServer(web));
    const order = await fetch(`${origin}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sku: 'kiln-7' }),
    });
    expect(await order.json()).toEqual({ received: { sku: 'kiln-7' } });
    expect(await callWhoAmI(`${origin}/mcp`, 'envelope')).toMatchObject({ era: 'envelope' });
  });
});

describe('nodeHandler elsewhere', () => {
  it.each(ERAS)('serves a plain node:http server (%s era)', async (era) => {
    const app = await newApp();
    const origin = await listening(app, createServer(nodeHandler(app)));
    expect(await callWhoAmI(`${origin}/mcp`, era)).toMatchObject({ era });
    // Without a next(), a path it does not serve gets its own 404.
    expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
  });

  it.each(ERAS)('serves Koa 3, which hands its req and res over (%s era)', async (era) => {
    const app = await newApp();
    const handler = nodeHandler(app, { prefix: '/mcp' });
    const koa = new Koa();
    koa.use(async (ctx, next) => {
      if (ctx.path === '/status') {
        ctx.body = { up: true };
        return;
      }
      if (!ctx.path.startsWith('/mcp')) return next();
      ctx.respond = false;
      handler(ctx.req, ctx.res);
    });
    const origin = await listening(app, createServer(koa.callback()));
    expect(await callWhoAmI(`${origin}/mcp`, era)).toMatchObject({ era });
    expect(await (await fetch(`${origin}/status`)).json()).toEqual({ up: true });
  });
});
