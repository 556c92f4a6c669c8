// modules/redis: Kiln on Redis (single node or Cluster, Redis >= 6.2). Part 1: the connection and ctx.state storage.
export {
  createRedisConnection,
  type RedisClient,
  type RedisConnection,
  type RedisConnectionDependencies,
} from './redis-connection.js';
export {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_KEY_PREFIX,
  type RedisClusterConnectionOptions,
  type RedisConnectionOptions,
  type RedisNodeConnectionOptions,
} from './redis-connection-options.js';
export { createRedisStorageProvider } from './redis-storage-factory.js';
export {
  DEFAULT_MAX_VALUE_BYTES,
  RedisStorageProvider,
  type RedisStorageProviderOptions,
} from './redis-storage-provider.js';
