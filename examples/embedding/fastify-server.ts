// Embedding example (docs/embedding.md): the app created without serving, then mounted on an application's own
// Fastify instance with its plugins and routes.
import { createApp } from 'mcp-kiln';
import { AppModule } from './app.module.js';

const app = await createApp(AppModule, { name: 'billing', version: '1.4.0', serve: false });

import cors from '@fastify/cors';
import Fastify from 'fastify';
import { kilnFastify } from 'mcp-kiln/http';

const fastify = Fastify({ logger: true, trustProxy: true });
await fastify.register(cors, { origin: 'https://app.example' });
fastify.get('/status', async () => ({ up: true }));
await fastify.register(kilnFastify, { app, prefix: '/mcp' });
await fastify.listen({ port: 8080 });
