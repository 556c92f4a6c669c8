// Providers on the test servers, for the compliance suite and the Redis-specific cases. Each provider gets a key
// prefix of its own, so cases sharing one server never see each other's entries.
import { randomUUID } from 'node:crypto';
import { afterEach } from 'vitest';
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

export interface OpenedProviders {
  /** A provider on `target()` with its own key prefix unless one is given, closed after the current case. */
  open(keyPrefix?: string): RedisStorageProvider;
  /** Closes `provider` after the current case too. */
  track<T extends RedisStorageProvider>(provider: T): T;
}

/** Call inside a describe block: registers the afterEach that closes what its cases opened. */
export function openedProviders(target: () => RedisTarget): OpenedProviders {
  const opened: RedisStorageProvider[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((provider) => provider.close()));
  });
  const track = <T extends RedisStorageProvider>(provider: T): T => {
    opened.push(provider);
    return provider;
  };
  return { track, open: (keyPrefix = uniquePrefix()) => track(redisProvider(target(), keyPrefix)) };
}
