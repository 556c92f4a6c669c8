// RedisStorageProvider on a real 3-master Redis Cluster: the unchanged compliance suite, exactly-once take across
// connections, and tenant ids full of `{`, `}` and `:` whose MULTIs must still stay inside one slot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStorageProviderCompliance } from '../storage/provider-compliance.js';
import { type RedisClusterServers, startRedisCluster } from '../support/redis-cluster.js';
import { masterOfTenant, oneTenantPerMaster } from './cluster-tenants.js';
import { makeRedisProvider, openedProviders, uniquePrefix } from './redis-test-providers.js';
import { expectOneDeleteWinner, expectOneTakeWinnerPerRound } from './take-race.js';

let cluster: RedisClusterServers;

beforeAll(async () => {
  cluster = await startRedisCluster();
});

afterAll(async () => {
  await cluster?.stop();
});

runStorageProviderCompliance(
  'RedisStorageProvider on a 3-master Cluster',
  makeRedisProvider(() => ({ clusterNodes: cluster.addresses })),
);

describe('RedisStorageProvider on a 3-master Cluster', () => {
  const { open } = openedProviders(() => ({ clusterNodes: cluster.addresses }));

  it('gives a taken value to exactly one caller over two connections, on every master', async () => {
    const prefix = uniquePrefix();
    const providers = [open(prefix), open(prefix)];
    for (const tenant of await oneTenantPerMaster(cluster, prefix)) {
      await expectOneTakeWinnerPerRound(providers, tenant);
      await expectOneDeleteWinner(providers, tenant);
    }
  });

  it('keeps every call of a tenant whose id is full of braces and colons in one slot', async () => {
    const prefix = uniquePrefix();
    const provider = open(prefix);
    const tenants = ['{', '}', '{}', 'a}{b', 'x:{y}:z', ':', '{tenant-a}'];
    const masters = new Set<number>();
    for (const tenant of tenants) {
      masters.add((await masterOfTenant(cluster, prefix, tenant)).port);
      const entries = new Map([
        ['k/1', '1'],
        ['k/2', JSON.stringify(tenant)],
      ]);
      await provider.setMany(tenant, entries, { ttlSeconds: 60 });
      expect(await provider.getMany(tenant, ['k/1', 'k/2'])).toEqual(entries);
      expect((await provider.list(tenant, 'k/', { limit: 10 })).items.map((item) => item.value)).toEqual([
        '1',
        JSON.stringify(tenant),
      ]);
      expect(await provider.take(tenant, 'k/2')).toBe(JSON.stringify(tenant));
      expect(await provider.deleteMany(tenant, ['k/1', 'k/2'])).toBe(1);
    }
    // The ids are spread over the Cluster rather than pinned to one master by a broken tag.
    expect(masters.size).toBeGreaterThan(1);
  });
});
