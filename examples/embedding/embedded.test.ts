// Embedding example (docs/embedding.md): the application's routes and the MCP endpoint tested in one Fastify
// instance, without a socket.
import type { FastifyInstance } from 'fastify';
import { createTestingModule } from 'mcp-kiln/testing';
import { expect, it } from 'vitest';
import { AppModule } from './app.module.js';

async function statusRoutes(instance: FastifyInstance) {
  instance.get('/status', async () => ({ up: true }));
}

it('serves the application routes beside the MCP endpoint', async () => {
  const testing = await createTestingModule({ imports: [AppModule] }).compile();
  const fastify = await testing.http({
    configure: async (instance) => {
      await instance.register(statusRoutes);
    },
  });
  const answer = await fastify.inject({ method: 'GET', url: '/mcp/healthz' });
  expect(answer.statusCode).toBe(200);
  expect((await fastify.inject({ method: 'GET', url: '/status' })).json()).toEqual({ up: true });
  await testing.close();
});
