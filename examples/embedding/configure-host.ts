// Embedding example (docs/embedding.md): Kiln's own server with the application's plugins and routes added.
import cors from '@fastify/cors';
import { createApp } from 'mcp-kiln';
import { AppModule } from './app.module.js';

/** Stands in for the application's own webhook handling. */
async function handleWebhook(body: unknown): Promise<{ received: boolean }> {
  return { received: body !== undefined };
}

const app = await createApp(AppModule, { name: 'billing', version: '1.4.0', serve: false });

import { http } from 'mcp-kiln/http';

await app.serve(
  http({
    configure: async (fastify) => {
      await fastify.register(cors, { origin: 'https://app.example' });
      fastify.post('/webhooks/billing', async (request) => handleWebhook(request.body));
    },
  }),
);
