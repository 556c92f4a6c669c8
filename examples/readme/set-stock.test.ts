// README example: testing a protected tool over real HTTP with the testing kit's local issuer.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApp } from 'mcp-kiln';
import { authFromEnv } from 'mcp-kiln/auth';
import { http } from 'mcp-kiln/http';
import { startTestIssuer } from 'mcp-kiln/testing';
import { expect, it } from 'vitest';
import { StockModule } from './set-stock.tool.js';

it('lets a token granted library:write set the stock, and refuses one without it', async () => {
  const issuer = await startTestIssuer({ audience: 'https://library.example/mcp' });
  const env = { ...issuer.oauthEnv(), MCP_LOG_LEVEL: 'error' }; // MCP_AUTH_MODE=oauth, pointed at the issuer
  const app = await createApp(StockModule, { env, serve: false });
  const web = await app.serve(http({ config: { port: 0 }, auth: authFromEnv(env) }));

  const connect = async (scopes: string[]) => {
    const token = await issuer.mintToken({ sub: 'alice', tenant: 'branch-7', scopes });
    const client = new Client({ name: 'stock-test', version: '1.0.0' });
    const headers = { authorization: `Bearer ${token}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(web.endpointUrl), { requestInit: { headers } }));
    return client;
  };
  const call = { name: 'library_set_stock', arguments: { isbn: '9780262033848', copies: 3 } };

  const reader = await connect(['library:read']);
  await expect(reader.callTool(call)).rejects.toThrow('Insufficient scope: required "library:write"'); // HTTP 403
  const writer = await connect(['library:write']);
  expect((await writer.callTool(call)).structuredContent).toEqual({ copies: 3 });

  await Promise.all([reader.close(), writer.close()]);
  await app.close();
  await issuer.close();
});
