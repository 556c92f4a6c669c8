// Which Cluster master serves a tenant, asked of the Cluster itself, so tests can pick tenants on chosen masters.
import { tenantKeys } from '../../modules/redis/state-key-layout.js';
import type { RedisClusterServers } from '../support/redis-cluster.js';
import { redisCommand } from '../support/redis-probe.js';
import type { RedisNode } from '../support/redis-servers.js';

export async function masterOfTenant(
  cluster: RedisClusterServers,
  keyPrefix: string,
  tenant: string,
): Promise<RedisNode> {
  const reporter = cluster.nodes.find((node) => node.running);
  if (!reporter) throw new Error('No Cluster node is running');
  const index = tenantKeys(keyPrefix, tenant).index.toString();
  const slot = Number(await redisCommand(reporter.port, ['CLUSTER', 'KEYSLOT', index]));
  return cluster.ownerOfSlot(slot);
}

/** One tenant id per master, in the order of `cluster.nodes`. */
export async function oneTenantPerMaster(cluster: RedisClusterServers, keyPrefix: string): Promise<string[]> {
  const byPort = new Map<number, string>();
  for (let candidate = 0; byPort.size < cluster.nodes.length; candidate++) {
    if (candidate > 1_000) throw new Error('Could not find a tenant on every master');
    const tenant = `tenant-${candidate}`;
    const master = await masterOfTenant(cluster, keyPrefix, tenant);
    if (!byPort.has(master.port)) byPort.set(master.port, tenant);
  }
  return cluster.nodes.map((node) => byPort.get(node.port) as string);
}
