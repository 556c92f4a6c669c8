// The unchanged StorageProvider compliance suite against RedisStorageProvider on a real 3-master Redis Cluster, so
// every MULTI and multi-key command is proven to stay inside one tenant's slot.
import { afterAll, beforeAll } from 'vitest';
import { runStorageProviderCompliance } from '../storage/provider-compliance.js';
import { type RedisClusterServers, startRedisCluster } from '../support/redis-servers.js';
import { makeRedisProvider } from './redis-test-providers.js';

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
