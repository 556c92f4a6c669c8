// The everything example mounted on an application's own Fastify instance, under a prefix, beside a route of the
// application's: what the conformance runner tests the kilnFastify plugin with.
import Fastify from 'fastify';
import { createApp } from 'mcp-kiln';
import { kilnFastify } from 'mcp-kiln/http';
import { EverythingModule } from './everything.module.js';

const PREFIX = '/api/mcp';
const app = await createApp(EverythingModule, { name: 'kiln-everything', version: '0.1.0', serve: false });
const fastify = Fastify();
fastify.get('/status', async () => ({ up: true }));
await fastify.register(kilnFastify, { app, prefix: PREFIX });
await fastify.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3011) });
const address = fastify.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(
  `kiln-everything is serving MCP on a Fastify app.\n  MCP endpoint: http://127.0.0.1:${port}${PREFIX}\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await fastify.close();
    await app.close();
  });
}
