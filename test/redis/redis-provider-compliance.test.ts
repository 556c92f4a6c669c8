// The unchanged StorageProvider compliance suite against RedisStorageProvider on one real redis-server.
import { afterAll, beforeAll } from 'vitest';
import { runStorageProviderCompliance } from '../storage/provider-compliance.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';
import { makeRedisProvider } from './redis-test-providers.js';

let server: RedisSingleServer;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await server?.stop();
});

runStorageProviderCompliance(
  'RedisStorageProvider on a single node',
  makeRedisProvider(() => ({ url: server.url })),
);
