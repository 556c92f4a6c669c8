// RedisStorageProvider when its one redis-server fails: calls fail fast with storage_unavailable and the same
// provider instance recovers once Redis is back; a crash loses nothing thanks to the fsync-always AOF.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisStorageProvider } from '../../modules/redis/index.js';
import { tenantKeys } from '../../modules/redis/state-key-layout.js';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { createLogger } from '../../src/logging/index.js';
import { expectMcpError } from '../storage/storage-test-helpers.js';
import { redisCommand } from '../support/redis-probe.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';
import { expectUnavailable, untilRecovered } from './outage-expectations.js';
import { openedProviders, uniquePrefix } from './redis-test-providers.js';

const T = 'tenant-a';
let server: RedisSingleServer;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await server?.stop();
});

describe('RedisStorageProvider when Redis fails', () => {
  const { open, track } = openedProviders(() => ({ url: server.url }));

  afterEach(async () => {
    if (!server.running) await server.restart();
  });

  it('fails fast with storage_unavailable while Redis is down, and the same instance recovers', async () => {
    const provider = open();
    await provider.set(T, 'k', '"before"');
    await server.kill();

    await expectUnavailable(provider.get(T, 'k'), [server.port]);
    await expectUnavailable(provider.set(T, 'other', '1'), [server.port]);
    await expectUnavailable(provider.take(T, 'other'), [server.port]);
    await expectUnavailable(provider.list(T, '', { limit: 10 }), [server.port]);

    await server.restart();
    expect(await untilRecovered(() => provider.get(T, 'k'))).toBe('"before"');
    await provider.set(T, 'after', '"written after the outage"');
    expect(await provider.take(T, 'after')).toBe('"written after the outage"');
  });

  it('fails fast when Redis is down at startup, and connects once it comes up', async () => {
    await server.kill();
    const provider = open();
    await expectUnavailable(provider.get(T, 'k'), [server.port]);
    await server.restart();
    await untilRecovered(() => provider.set(T, 'k', '"late"'));
    expect(await provider.get(T, 'k')).toBe('"late"');
  });

  it('keeps values, their expiry and the index across a crash and restart', async () => {
    const prefix = uniquePrefix();
    const provider = open(prefix);
    await provider.set(T, 'durable/a', '"a"');
    await provider.setMany(
      T,
      new Map([
        ['durable/b', '"b"'],
        ['durable/c', '"c"'],
      ]),
      { ttlSeconds: 3600 },
    );
    expect(await provider.take(T, 'durable/c')).toBe('"c"');

    await server.kill();
    await server.restart();

    const page = await untilRecovered(() => provider.list(T, 'durable/', { limit: 10 }));
    expect(page.items).toEqual([
      { key: 'durable/a', value: '"a"' },
      { key: 'durable/b', value: '"b"' },
    ]);
    const keys = tenantKeys(prefix, T);
    const ttlOf = async (key: string) =>
      Number(await redisCommand(server.port, ['PTTL', keys.valueKey(keys.member(key)).toString()]));
    expect(await ttlOf('durable/a')).toBe(-1);
    expect(await ttlOf('durable/b')).toBeGreaterThan(3_000_000);
    expect(await ttlOf('durable/c')).toBe(-2);
  });

  it('reports Redis refusing writes for lack of memory as storage_full', async () => {
    const provider = open();
    await provider.set(T, 'k', '1');
    await redisCommand(server.port, ['CONFIG', 'SET', 'maxmemory', '1']);
    try {
      const error = await expectMcpError(provider.set(T, 'k', '2'), JsonRpcErrorCode.StorageError);
      expect(error.data).toMatchObject({ reason: 'storage_full', recovery: { hint: expect.any(String) } });
      expect(await provider.get(T, 'k')).toBe('1');
    } finally {
      await redisCommand(server.port, ['CONFIG', 'SET', 'maxmemory', '0']);
    }
  });

  it('reports other refusals as storage_failed with the Redis error code and nothing else', async () => {
    const prefix = uniquePrefix();
    const provider = open(prefix);
    const keys = tenantKeys(prefix, T);
    await redisCommand(server.port, ['HSET', keys.valueKey(keys.member('k')).toString(), 'field', '1']);
    const error = await expectMcpError(provider.get(T, 'k'), JsonRpcErrorCode.StorageError);
    expect(error.data).toEqual({ reason: 'storage_failed', redisError: 'WRONGTYPE' });
    expect(error.message).toBe('Redis storage refused get (WRONGTYPE)');
  });

  it('logs an outage once, with the endpoint, to the process log and not to the caller', async () => {
    const lines: Array<{ level: string; msg: string; err?: { message: string } }> = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => lines.push(JSON.parse(line)) },
    });
    const provider = track(
      new RedisStorageProvider({ connection: { url: server.url, keyPrefix: uniquePrefix() }, logger }),
    );
    await provider.set(T, 'k', '1');
    await server.kill();
    await expectUnavailable(provider.get(T, 'k'), [server.port]);
    await expectUnavailable(provider.get(T, 'k'), [server.port]);
    await server.restart();
    await untilRecovered(() => provider.get(T, 'k'));
    await expect.poll(() => lines.map((line) => line.msg)).toContain('Redis connection ready again');

    const warnings = lines.filter((line) => line.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.err?.message).toContain(String(server.port));
  });
});
