// kilnFastify on a Fastify instance the user made: the endpoint under a prefix beside the user's own routes, with the
// real @fastify/cors, @fastify/helmet, @fastify/rate-limit and @fastify/under-pressure in force on Kiln's routes too;
// both protocol eras through the official SDK client; fastify.inject() without a socket; bearer auth with the RFC 9728
// metadata at the well-known path for the prefix; and who closes what.
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyUnderPressure from '@fastify/under-pressure';
import Fastify, { type FastifyInstance } from 'fastify';
import { createApp, type KilnApp } from 'mcp-kiln';
import { InvalidTokenError } from 'mcp-kiln/auth';
import { kilnFastify } from 'mcp-kiln/http';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpFixtureModule } from './helpers/http-fixture.module.js';
import { connectClient, type Era, envelopeHeaders, envelopeRequest, MCP_ACCEPT, post } from './helpers/http-server.js';

const PREFIX = '/api/mcp';
const ENV = { MCP_LOG_LEVEL: 'error', MCP_PLAYGROUND: 'on' };

interface Mounted {
  readonly app: KilnApp;
  readonly fastify: FastifyInstance;
  readonly origin: string;
}

const opened: Mounted[] = [];
afterEach(async () => {
  for (const { app, fastify } of opened.splice(0)) {
    await fastify.close();
    await app.close();
  }
});

/** The user's app: their plugins and a route of their own, then Kiln under PREFIX, listening on a free port. */
async function userApp(kiln: Partial<Parameters<typeof kilnFastify>[1]> = {}): Promise<Mounted> {
  const app = await createApp(HttpFixtureModule, { serve: false, name: 'embedded', version: '1.0.0', env: ENV });
  const fastify = Fastify();
  await fastify.register(fastifyCors, { origin: 'https://app.example' });
  await fastify.register(fastifyHelmet);
  await fastify.register(fastifyRateLimit, { max: 1000, timeWindow: '1 minute' });
  await fastify.register(fastifyUnderPressure, { exposeStatusRoute: '/pressure' });
  fastify.get('/status', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, async () => ({ up: true }));
  await fastify.register(kilnFastify, { app, prefix: PREFIX, ...kiln });
  await fastify.listen({ host: '127.0.0.1', port: 0 });
  const address = fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const mounted = { app, fastify, origin: `http://127.0.0.1:${port}` };
  opened.push(mounted);
  return mounted;
}

const toolsList = (id: number) => envelopeRequest('tools/list', {}, { id });
/** What a client sends with a 2026-07-28 tools/list, for inject() (post() adds the first two itself). */
const listHeaders = { 'content-type': 'application/json', accept: MCP_ACCEPT, ...envelopeHeaders('tools/list') };

describe('kilnFastify on a user instance', () => {
  it.each(['handshake', 'envelope'] as Era[])(
    'serves the official SDK client under the prefix (%s era)',
    async (era) => {
      const { origin } = await userApp();
      const { client } = await connectClient(`${origin}${PREFIX}`, era);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain('probe_whoami');
        const result = await client.callTool({ name: 'probe_whoami', arguments: {} });
        expect(result.structuredContent).toMatchObject({ era });
      } finally {
        await client.close();
      }
    },
  );

  it("keeps the user's routes and plugins in force, on Kiln's routes too", async () => {
    const { origin } = await userApp();
    // The user's own route, with its own rate limit (2 a minute).
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${origin}/status`)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await fetch(`${origin}/pressure`)).status).toBe(200);
    // Kiln's endpoint answers under the user's global rate limit and Helmet's headers.
    const answer = await post(`${origin}${PREFIX}`, toolsList(1), envelopeHeaders('tools/list'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    // CORS: the preflight of a browser app the user allowed is answered by @fastify/cors.
    const preflight = await fetch(`${origin}${PREFIX}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('answers fastify.inject() without a socket', async () => {
    const { fastify } = await userApp();
    const answer = await fastify.inject({
      method: 'POST',
      url: PREFIX,
      headers: listHeaders,
      payload: JSON.stringify(toolsList(7)),
    });
    expect(answer.statusCode).toBe(200);
    const body = answer.json() as { id: number; result: { tools: { name: string }[] } };
    expect(body.id).toBe(7);
    expect(body.result.tools.map((tool) => tool.name)).toContain('probe_whoami');
    const health = await fastify.inject({ method: 'GET', url: `${PREFIX}/healthz` });
    expect(health.json()).toMatchObject({ status: 'ok', server: { name: 'embedded' } });
    const ready = await fastify.inject({ method: 'GET', url: `${PREFIX}/readyz` });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', checks: { accepting: 'ok', storage: 'ok' } });
  });

  it('shows the landing page to a browser visiting the endpoint, and refuses other GETs with 406', async () => {
    const { origin } = await userApp();
    const page = await fetch(`${origin}${PREFIX}`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`${origin}${PREFIX}`);
    expect(html).toContain(`<script src="${PREFIX}/playground.js" defer>`);
    expect((await fetch(`${origin}${PREFIX}/playground.js`)).status).toBe(200);
    expect((await fetch(`${origin}${PREFIX}`, { headers: { accept: 'application/json' } })).status).toBe(406);
  });

  it('leaves the landing page and health route out when told', async () => {
    const { origin } = await userApp({ landingPage: false, health: false });
    expect((await fetch(`${origin}${PREFIX}`, { headers: { accept: 'text/html' } })).status).toBe(406);
    expect((await fetch(`${origin}${PREFIX}/healthz`)).status).toBe(404);
    expect((await fetch(`${origin}${PREFIX}/readyz`)).status).toBe(404);
  });

  it('guards the endpoint with bearer auth and serves the metadata at the well-known path for the prefix', async () => {
    const verifier = {
      verify: async (token: string) => {
        if (token !== 'good') throw new InvalidTokenError('unknown token');
        return { sub: 'ada', exp: Math.floor(Date.now() / 1000) + 60, tenant_id: 'acme' };
      },
    };
    const { origin } = await userApp({ auth: { verifier, authorizationServers: ['https://as.example'] } });
    const refused = await post(`${origin}${PREFIX}`, toolsList(1), envelopeHeaders('tools/list'));
    expect(refused.status).toBe(401);
    const metadataUrl = `${origin}/.well-known/oauth-protected-resource${PREFIX}`;
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: `${origin}${PREFIX}`, authorization_servers: ['https://as.example'] });
    const allowed = await post(`${origin}${PREFIX}`, toolsList(2), {
      ...envelopeHeaders('tools/list'),
      authorization: 'Bearer good',
    });
    expect(allowed.status).toBe(200);
    // The user's routes are not behind Kiln's gate, and neither is the landing page.
    expect((await fetch(`${origin}/pressure`)).status).toBe(200);
    expect((await fetch(`${origin}${PREFIX}`, { headers: { accept: 'text/html' } })).status).toBe(200);
  });

  it('refuses auth inside a prefixed context, where the well-known metadata cannot be served', async () => {
    const app = await createApp(HttpFixtureModule, { serve: false, env: ENV });
    const fastify = Fastify();
    opened.push({ app, fastify, origin: '' });
    const verifier = { verify: async () => ({ sub: 'x', exp: 0 }) };
    const registering = fastify.register(
      async (scoped) => {
        await scoped.register(kilnFastify, { app, prefix: '/mcp', auth: { verifier } });
      },
      { prefix: '/api' },
    );
    await expect(registering).rejects.toThrow(
      /mounted inside a context with the prefix \/api.*Register kilnFastify on the root instance with \{ prefix: '\/api\/mcp' \}/,
    );
  });

  it("stops taking MCP work when the app closes, while the user's routes keep serving", async () => {
    const { app, origin } = await userApp();
    await app.close();
    const answer = await post(`${origin}${PREFIX}`, toolsList(3), envelopeHeaders('tools/list'));
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { error: { data: unknown } }).error.data).toMatchObject({
      reason: 'shutting_down',
    });
    expect((await fetch(`${origin}/pressure`)).status).toBe(200);
  });

  it('ends 2025 sessions when the user closes the instance', async () => {
    const { fastify, origin, app } = await userApp();
    const { client } = await connectClient(`${origin}${PREFIX}`, 'handshake');
    await client.listTools();
    await fastify.close();
    expect(app.inFlight).toBe(0);
    await expect(client.listTools()).rejects.toThrow();
    await client.close();
  });

  it('refuses a prefix that is not a path, and a missing app, when the instance loads', async () => {
    const app = await createApp(HttpFixtureModule, { serve: false, env: ENV });
    for (const [options, message] of [
      [{ app, prefix: 'mcp' }, /prefix "mcp" is not a path such as \/mcp/],
      [{ app, prefix: '/mcp/' }, /prefix "\/mcp\/" is not a path/],
      [{}, /kilnFastify needs \{ app \}/],
    ] as const) {
      const fastify = Fastify();
      await expect(fastify.register(kilnFastify, options as never)).rejects.toThrow(message);
    }
    await app.close();
  });
});
