// A NestJS 12 application with Kiln's endpoint on its own HTTP server, on both Nest platforms: the kilnFastify plugin
// on @nestjs/platform-fastify's instance and nodeHandler on @nestjs/platform-express. A Kiln tool uses the service the
// Nest application owns (the counter Nest's own route reports moves), both protocol eras through the official SDK
// client, and closing Nest then Kiln ends both.
import { afterEach, describe, expect, it } from 'vitest';
import { type NestWithKiln, startNestWithKiln } from '../../examples/nestjs/start.js';
import { connectClient, type Era } from '../http/helpers/http-server.js';

let running: NestWithKiln | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe.each(['fastify', 'express'] as const)('NestJS on %s with Kiln', (platform) => {
  it.each(['handshake', 'envelope'] as Era[])(
    "calls a Kiln tool that uses the Nest application's service (%s era)",
    async (era) => {
      running = await startNestWithKiln(platform);
      const { client } = await connectClient(`${running.url}/mcp`, era);
      try {
        const first = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
        const second = await client.callTool({ name: 'greet', arguments: { name: 'Grace' } });
        expect(first.structuredContent).toEqual({ greeting: 'Hello, Ada!', visit: 1 });
        expect(second.structuredContent).toEqual({ greeting: 'Hello, Grace!', visit: 2 });
      } finally {
        await client.close();
      }
      // Nest's own route, on the same server, reads the same service.
      expect(await (await fetch(`${running.url}/status`)).json()).toEqual({ greetings: 2 });
    },
  );

  it('stops serving MCP and Nest routes once closed', async () => {
    running = await startNestWithKiln(platform);
    const { url } = running;
    await running.close();
    running = undefined;
    await expect(fetch(`${url}/status`)).rejects.toThrow();
  });
});
