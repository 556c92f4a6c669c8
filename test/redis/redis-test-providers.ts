// Providers on the test servers, for the compliance suite and the fault tests. Each provider gets a key prefix of
// its own, so cases sharing one server never see each other's entries.
import { randomUUID } from 'node:crypto';
import { type RedisConnectionOptions, RedisStorageProvider } from '../../modules/redis/index.js';
import type { MakeProvider } from '../storage/storage-test-helpers.js';

export type RedisTarget = { url: string } | { clusterNodes: string[] };

export function uniquePrefix(): string {
  return `kiln-test-${randomUUID().slice(0, 8)}`;
}

export function redisProvider(
  target: RedisTarget,
  keyPrefix = uniquePrefix(),
  now?: () => number,
): RedisStorageProvider {
  const connection: RedisConnectionOptions = { ...target, keyPrefix };
  return new RedisStorageProvider({ connection, ...(now ? { now } : {}) });
}

/** A MakeProvider for the compliance suite; `target` is read when a case starts, after beforeAll started Redis. */
export function makeRedisProvider(target: () => RedisTarget): MakeProvider {
  return async ({ now }) => {
    const provider = redisProvider(target(), uniquePrefix(), now);
    return { provider, cleanup: () => provider.close() };
  };
}
