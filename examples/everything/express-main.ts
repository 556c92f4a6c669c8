// The everything example mounted in an Express 5 application with nodeHandler, after express.json() (so the endpoint
// takes bodies Express already parsed), beside a route of the application's: what the conformance runner tests the
// node handler with.
import express from 'express';
import { createApp } from 'mcp-kiln';
import { nodeHandler } from 'mcp-kiln/http';
import { EverythingModule } from './everything.module.js';

const app = await createApp(EverythingModule, { name: 'kiln-everything', version: '0.1.0', serve: false });
const web = express();
web.use(express.json({ limit: '4mb' }));
web.get('/status', (_request, response) => {
  response.json({ up: true });
});
web.use(nodeHandler(app, { prefix: '/mcp' }));
const server = web.listen(Number(process.env.PORT ?? 3012), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(
    `kiln-everything is serving MCP on an Express app.\n  MCP endpoint: http://127.0.0.1:${port}/mcp\n`,
  );
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await app.close();
    server.close();
  });
}
