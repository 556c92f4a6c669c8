// 2026-07-28 cache hints: server-wide per method (createApp cacheHints), per resource (@Resource cacheHint, which
// wins field by field), the SDK default elsewhere, none on the 2025 wire, and bad hints stopping boot.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type HttpServing, http } from '../../modules/http/index.js';
import type { CreateAppOptions } from '../../src/app/app-options.js';
import { KilnBootError } from '../../src/errors/index.js';
import { Module, Prompt, Resource } from '../../src/index.js';
import { createTestingModule, type TestingApp } from '../../src/testing/index.js';
import { connectClient, type Era } from './helpers/http-server.js';

@Resource('cache://hinted', {
  name: 'hinted',
  description: 'A resource with its own cache hint.',
  mimeType: 'text/plain',
  cacheHint: { ttlMs: 5000 },
})
class HintedResource {
  handle() {
    return 'hinted';
  }
}

@Resource('cache://plain/{id}', {
  name: 'plain',
  description: 'A resource template without a hint.',
  params: z.object({ id: z.string().describe('Item id') }),
})
class PlainResource {
  handle(params: { id: string }) {
    return `plain ${params.id}`;
  }
}

@Prompt('cache_prompt', { description: 'A prompt, so prompts/list exists.' })
class CachePrompt {
  handle() {
    return 'Hello.';
  }
}

@Module({ resources: [HintedResource, PlainResource], prompts: [CachePrompt] })
class CacheModule {}

const cacheHints: CreateAppOptions['cacheHints'] = {
  'resources/read': { ttlMs: 1000, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: 60_000, cacheScope: 'public' },
};

let running: { testing: TestingApp; serving: HttpServing } | undefined;

async function start(): Promise<HttpServing> {
  const testing = await createTestingModule({ imports: [CacheModule] }).compile({
    cacheHints,
    env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0' },
  });
  const serving = await testing.app.serve(http());
  running = { testing, serving };
  return serving;
}

afterEach(async () => {
  await running?.serving.close();
  await running?.testing.close();
  running = undefined;
});

const hintOf = (result: object) => {
  const { ttlMs, cacheScope } = result as { ttlMs?: number; cacheScope?: string };
  return { ttlMs, cacheScope };
};

describe('cache hints on the 2026-07-28 wire', () => {
  it('applies the server hint, lets a resource override it field by field, and defaults the rest', async () => {
    const serving = await start();
    const { client } = await connectClient(serving.endpointUrl, 'envelope');
    const close = () => client.close();
    try {
      expect(hintOf(await client.readResource({ uri: 'cache://hinted' }))).toEqual({
        ttlMs: 5000,
        cacheScope: 'public',
      });
      expect(hintOf(await client.readResource({ uri: 'cache://plain/7' }))).toEqual({
        ttlMs: 1000,
        cacheScope: 'public',
      });
      expect(hintOf(await client.listResourceTemplates())).toEqual({ ttlMs: 60_000, cacheScope: 'public' });
      expect(hintOf(await client.listPrompts())).toEqual({ ttlMs: 0, cacheScope: 'private' });
    } finally {
      await close();
    }
  });

  it.each<Era>(['handshake'])('sends no cache fields on the %s wire', async (era) => {
    const serving = await start();
    const { client } = await connectClient(serving.endpointUrl, era);
    const close = () => client.close();
    try {
      expect(hintOf(await client.readResource({ uri: 'cache://hinted' }))).toEqual({
        ttlMs: undefined,
        cacheScope: undefined,
      });
      expect(hintOf(await client.listResourceTemplates())).toEqual({ ttlMs: undefined, cacheScope: undefined });
    } finally {
      await close();
    }
  });
});

describe('cache hints at boot', () => {
  it('stops boot on a negative ttlMs in createApp cacheHints', async () => {
    const boot = createTestingModule({ imports: [CacheModule] }).compile({
      cacheHints: { 'tools/list': { ttlMs: -5 } },
    });
    await expect(boot).rejects.toBeInstanceOf(KilnBootError);
    await expect(boot).rejects.toThrow("createApp cacheHints['tools/list']: ttlMs must be a non-negative integer");
  });

  it('stops boot on a bad cacheScope on a resource, naming it', async () => {
    @Resource('cache://bad', {
      name: 'bad',
      description: 'A resource with a bad hint.',
      cacheHint: { cacheScope: 'everyone' as 'public' },
    })
    class BadResource {
      handle() {
        return 'bad';
      }
    }
    @Module({ resources: [BadResource] })
    class BadModule {}
    await expect(createTestingModule({ imports: [BadModule] }).compile()).rejects.toThrow(
      "Resource bad (BadResource): cacheHint cacheScope must be 'public' or 'private'",
    );
  });
});
