// RedisStorageProvider on one real redis-server: the unchanged compliance suite, then what only Redis can show —
// exactly-once take across connections, the key layout, code-unit ordering, lazy index pruning, the value limit.
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisConnection, RedisStorageProvider } from '../../modules/redis/index.js';
import { tenantKeys } from '../../modules/redis/state-key-layout.js';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { runStorageProviderCompliance } from '../storage/provider-compliance.js';
import { expectMcpError } from '../storage/storage-test-helpers.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';
import { makeRedisProvider, openedProviders, redisProvider, uniquePrefix } from './redis-test-providers.js';
import { expectOneDeleteWinner, expectOneTakeWinnerPerRound } from './take-race.js';

const T = 'tenant-a';
let server: RedisSingleServer;
/** A plain client for looking at what the provider left in Redis. */
let inspector: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  inspector = new Redis(server.url);
});

afterAll(async () => {
  inspector?.disconnect();
  await server?.stop();
});

runStorageProviderCompliance(
  'RedisStorageProvider on a single node',
  makeRedisProvider(() => ({ url: server.url })),
);

describe('RedisStorageProvider on a single node', () => {
  const { open, track } = openedProviders(() => ({ url: server.url }));

  it('gives a taken value to exactly one of many callers spread over two connections', async () => {
    const prefix = uniquePrefix();
    await expectOneTakeWinnerPerRound([open(prefix), open(prefix)], T);
  });

  it('reports true to exactly one of concurrent deletes spread over two connections', async () => {
    const prefix = uniquePrefix();
    await expectOneDeleteWinner([open(prefix), open(prefix)], T);
  });

  it('keeps a tenant under its prefix and hash tag: one value key per entry and one index', async () => {
    const prefix = uniquePrefix();
    const provider = open(prefix);
    const tenant = 'a{b}:c';
    await provider.set(tenant, 'item/1', '1');
    await provider.set(tenant, 'item/2', '2', { ttlSeconds: 60 });
    const tag = `t${Buffer.from(tenant).toString('base64url')}`;
    expect((await inspector.keys(`${prefix}:*`)).sort()).toEqual([
      `${prefix}:st:{${tag}}:i`,
      `${prefix}:st:{${tag}}:v:item/1`,
      `${prefix}:st:{${tag}}:v:item/2`,
    ]);
    expect(await inspector.pttl(`${prefix}:st:{${tag}}:v:item/1`)).toBe(-1);
    expect(await inspector.pttl(`${prefix}:st:{${tag}}:v:item/2`)).toBeGreaterThan(59_000);
  });

  it('lists in UTF-16 code unit order and keeps keys and tenants differing only in lone surrogates apart', async () => {
    const provider = open();
    const keys = ['\uE000', '\uD83D\uDE00', 'a', '\uFFFD', '\uD800', '\uD800x', '\uDBFF', 'ü'];
    for (const [index, key] of keys.entries()) await provider.set(T, key, String(index));
    const page = await provider.list(T, '', { limit: 100 });
    expect(page.items.map((item) => item.key)).toEqual([...keys].sort());
    for (const [index, key] of keys.entries()) expect(await provider.get(T, key)).toBe(String(index));
    expect((await provider.list(T, '\uD800', { limit: 100 })).items.map((item) => item.key)).toEqual([
      '\uD800',
      '\uD800x',
    ]);

    await provider.set('\uD800', 'k', '"first"');
    await provider.set('\uD801', 'k', '"second"');
    expect(await provider.get('\uD800', 'k')).toBe('"first"');
  });

  it('drops index members of entries Redis has expired when a listing passes them', async () => {
    const prefix = uniquePrefix();
    const provider = open(prefix);
    await provider.set(T, 'p/short', '1', { ttlSeconds: 0.05 });
    await provider.set(T, 'p/kept', '2');
    const index = tenantKeys(prefix, T).index;
    expect(await inspector.zcard(index)).toBe(2);
    await sleep(150);
    expect((await provider.list(T, 'p/', { limit: 10 })).items).toEqual([{ key: 'p/kept', value: '2' }]);
    expect(await inspector.zcard(index)).toBe(1);
  });

  it('accepts a TTL far beyond what Redis can express, as a practically endless one', async () => {
    const provider = open();
    await provider.set(T, 'forever', '1', { ttlSeconds: 1e300 });
    expect(await provider.get(T, 'forever')).toBe('1');
  });

  it('rejects a value over the size limit with state_value_too_large and writes nothing', async () => {
    const provider = track(
      new RedisStorageProvider({ connection: { url: server.url, keyPrefix: uniquePrefix() }, maxValueBytes: 16 }),
    );
    const tooLarge = 'é'.repeat(9);
    const error = await expectMcpError(provider.set(T, 'big', tooLarge), JsonRpcErrorCode.StorageError, /18 bytes/);
    expect(error.data).toMatchObject({ reason: 'state_value_too_large', limit: 16 });
    const batch = new Map([
      ['small', '1'],
      ['big', tooLarge],
    ]);
    await expectMcpError(provider.setMany(T, batch), JsonRpcErrorCode.StorageError);
    expect(await provider.getMany(T, ['small', 'big'])).toEqual(new Map());
    await provider.set(T, 'exact', 'x'.repeat(16));
    expect(await provider.get(T, 'exact')).toBe('x'.repeat(16));
  });

  it('closes the connection it opened, and leaves a shared connection to its owner', async () => {
    // Connections of earlier cases may still be closing, so the provider's own connection is found by its id.
    const clientIds = async () => String(await inspector.client('LIST')).match(/(?<=^id=)\d+/gm) ?? [];
    const before = new Set(await clientIds());
    const owning = redisProvider({ url: server.url });
    await owning.set(T, 'k', '1');
    const opened = (await clientIds()).filter((id) => !before.has(id));
    expect(opened).toHaveLength(1);
    await owning.close();
    await expect.poll(clientIds).not.toContain(opened[0]);

    const connection = createRedisConnection({ url: server.url, keyPrefix: uniquePrefix() });
    const first = new RedisStorageProvider({ connection });
    const second = new RedisStorageProvider({ connection });
    await first.set(T, 'shared', '"yes"');
    await first.close();
    expect(await second.get(T, 'shared')).toBe('"yes"');
    await connection.close();
    const error = await expectMcpError(second.get(T, 'shared'), JsonRpcErrorCode.StorageError);
    expect(error.data?.reason).toBe('storage_unavailable');
  });
});
