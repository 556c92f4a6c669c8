// modules/redis: Kiln on Redis (single node or Cluster, Redis >= 6.2; the bus uses sharded pub/sub on a Cluster, Redis >= 7):
// the connection, ctx.state storage, the HTTP host's 2025 sessions shared by every instance, SSE resumability and the
// cross-instance change-event bus.
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
export {
  RedisServerEventBus,
  type RedisServerEventBusOptions,
} from './redis-server-event-bus.js';
export {
  RedisSessionEventStore,
  type RedisSessionEventStoreOptions,
  redisSessionEventStores,
  type SessionEventRetention,
} from './redis-session-event-store.js';
export {
  type RedisSessionHosting,
  type RedisSessionHostingOptions,
  startRedisSessionHosting,
} from './redis-session-hosting.js';
export { RedisSessionPeers, type RedisSessionPeersOptions } from './redis-session-peers.js';
export { RedisSessionRegistry, type RedisSessionRegistryOptions } from './redis-session-registry.js';
export { createRedisStorageProvider } from './redis-storage-factory.js';
export {
  DEFAULT_MAX_VALUE_BYTES,
  RedisStorageProvider,
  type RedisStorageProviderOptions,
} from './redis-storage-provider.js';
