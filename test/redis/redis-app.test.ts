// An app configured by environment alone (STORAGE_PROVIDER_TYPE=redis, REDIS_URL): ctx.state lives in Redis, so two
// app instances see each other's writes; while Redis is down a tool that uses state answers a clear storage error
// with a recovery hint, a tool that does not keeps working, and both recover without a restart.

import { type Context, Module, Tool } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';

@Tool('remember_value', {
  description: 'Stores a value under a key in ctx.state so a later call can read it back.',
  input: z.object({
    key: z.string().describe('The state key.'),
    value: z.string().optional().describe('The value to store; omit to only read.'),
  }),
  output: z.object({ value: z.string().nullable().describe('The stored value, or null.') }),
})
class RememberValue {
  async handle(input: { key: string; value?: string }, ctx: Context) {
    if (input.value !== undefined) await ctx.state.set(input.key, input.value);
    return { value: (await ctx.state.get<string>(input.key)) ?? null };
  }
}

@Tool('echo_text', {
  description: 'Returns the text it was given, without touching any storage at all.',
  input: z.object({ text: z.string().describe('Any text.') }),
  output: z.object({ text: z.string().describe('The same text.') }),
})
class EchoText {
  handle(input: { text: string }) {
    return { text: input.text };
  }
}

@Module({ tools: [RememberValue, EchoText] })
class StateModule {}

let server: RedisSingleServer;
const apps: TestingApp[] = [];

async function instance(): Promise<TestingApp> {
  const app = await createTestingModule({ imports: [StateModule] }).compile({
    env: { STORAGE_PROVIDER_TYPE: 'redis', REDIS_URL: server.url, REDIS_KEY_PREFIX: 'app-test' },
  });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await server?.stop();
});

describe('an app on Redis storage, selected by configuration', () => {
  it('shares ctx.state between two instances', async () => {
    const [a, b] = [await instance(), await instance()];
    await a.callTool('remember_value', { key: 'greeting', value: 'hello from a' });
    const read = await b.callTool('remember_value', { key: 'greeting' });
    expect(read.structuredContent).toEqual({ value: 'hello from a' });
  });

  it('answers a clear storage error while Redis is down, keeps stateless tools working, and recovers', async () => {
    const app = await instance();
    await app.callTool('remember_value', { key: 'k', value: 'v' });
    await server.kill();
    try {
      const failed = await app.callTool('remember_value', { key: 'k' });
      expect(failed.isError).toBe(true);
      expect(failed.structuredContent).toMatchObject({
        error: { data: { reason: 'storage_unavailable', recovery: { hint: expect.any(String) } } },
      });
      expect(JSON.stringify(failed)).not.toContain(String(server.port));
      expect((await app.callTool('echo_text', { text: 'still here' })).structuredContent).toEqual({
        text: 'still here',
      });
    } finally {
      await server.restart();
    }
    await expect
      .poll(async () => (await app.callTool('remember_value', { key: 'k' })).structuredContent, { timeout: 15_000 })
      .toEqual({ value: 'v' });
  });
});
