// RedisStorageProvider when one master of a 3-master Cluster dies: only tenants whose slot it served fail, with
// storage_unavailable and promptly; the others keep working, and all recover when the master returns with its AOF.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisStorageProvider } from '../../modules/redis/index.js';
import { type RedisClusterServers, startRedisCluster } from '../support/redis-cluster.js';
import { oneTenantPerMaster } from './cluster-tenants.js';
import { expectUnavailable, untilRecovered } from './outage-expectations.js';
import { redisProvider, uniquePrefix } from './redis-test-providers.js';

let cluster: RedisClusterServers;
let provider: RedisStorageProvider;
/** `tenants[i]` lives on `cluster.nodes[i]`. */
let tenants: string[];

beforeAll(async () => {
  cluster = await startRedisCluster();
  const prefix = uniquePrefix();
  provider = redisProvider({ clusterNodes: cluster.addresses }, prefix);
  tenants = await oneTenantPerMaster(cluster, prefix);
});

afterAll(async () => {
  await provider?.close();
  await cluster?.stop();
});

describe('RedisStorageProvider when a Cluster master fails', () => {
  it('fails only the tenants on the killed master, and they recover when it returns', async () => {
    for (const tenant of tenants) await provider.set(tenant, 'k', JSON.stringify(tenant));
    const [victimTenant, ...healthyTenants] = tenants as [string, ...string[]];
    const victim = cluster.nodes[0]!;
    const ports = cluster.nodes.map((node) => node.port);
    await victim.kill();

    await expectUnavailable(provider.get(victimTenant, 'k'), ports);
    await expectUnavailable(provider.set(victimTenant, 'other', '1'), ports);
    await expectUnavailable(provider.list(victimTenant, '', { limit: 10 }), ports);
    for (const tenant of healthyTenants) {
      expect(await provider.get(tenant, 'k')).toBe(JSON.stringify(tenant));
      await provider.set(tenant, 'during', '"outage"');
      expect(await provider.take(tenant, 'during')).toBe('"outage"');
    }

    await victim.restart();
    expect(await untilRecovered(() => provider.get(victimTenant, 'k'))).toBe(JSON.stringify(victimTenant));
    await provider.set(victimTenant, 'after', '"back"');
    expect(await provider.take(victimTenant, 'after')).toBe('"back"');
    for (const tenant of healthyTenants) expect(await provider.get(tenant, 'k')).toBe(JSON.stringify(tenant));
    await cluster.waitHealthy();
  });
});
