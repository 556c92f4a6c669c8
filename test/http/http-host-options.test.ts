// http() with the application's own parts: `configure` adds plugins and routes to Kiln's server before Kiln's routes;
// `fastify` serves on an instance the application made, which Kiln listens on and closes with the app.
import fastifyHelmet from '@fastify/helmet';
import Fastify from 'fastify';
import { createApp } from 'mcp-kiln';
import { http } from 'mcp-kiln/http';
import { describe, expect, it } from 'vitest';
import { HttpFixtureModule } from './helpers/http-fixture.module.js';
import { connectClient } from './helpers/http-server.js';

const ENV = { MCP_LOG_LEVEL: 'error', MCP_HTTP_PORT: '0' };

describe('http() options', () => {
  it("runs configure on Kiln's server first: the application's plugin and route serve beside the endpoint", async () => {
    const app = await createApp(HttpFixtureModule, { serve: false, env: ENV });
    try {
      const order: string[] = [];
      const serving = await app.serve(
        http({
          configure: async (fastify) => {
            order.push(`configure (endpoint routed: ${fastify.hasRoute({ method: 'POST', url: '/mcp' })})`);
            await fastify.register(fastifyHelmet);
            fastify.post('/webhooks/billing', async (request) => ({ received: request.body }));
          },
        }),
      );
      expect(order).toEqual(['configure (endpoint routed: false)']);
      const origin = new URL(serving.url).origin;
      const webhook = await fetch(`${origin}/webhooks/billing`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ invoice: 7 }),
      });
      expect(await webhook.json()).toEqual({ received: { invoice: 7 } });
      expect(webhook.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      const { client } = await connectClient(serving.endpointUrl, 'envelope');
      expect((await client.callTool({ name: 'probe_whoami', arguments: {} })).structuredContent).toMatchObject({
        era: 'envelope',
      });
      await client.close();
      expect(serving.fastify.hasRoute({ method: 'POST', url: '/webhooks/billing' })).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('serves on an instance the application made, and closes it with the app', async () => {
    const app = await createApp(HttpFixtureModule, { serve: false, env: ENV });
    const fastify = Fastify();
    fastify.get('/mine', async () => ({ mine: true }));
    try {
      const serving = await app.serve(http({ fastify }));
      expect(serving.fastify).toBe(fastify);
      const origin = new URL(serving.url).origin;
      expect(await (await fetch(`${origin}/mine`)).json()).toEqual({ mine: true });
      const { client } = await connectClient(serving.endpointUrl, 'handshake');
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      await app.close();
    }
    expect(fastify.server.listening).toBe(false);
  });
});
