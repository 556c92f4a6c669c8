// The Redis backend as createApp builds it from configuration (STORAGE_PROVIDER_TYPE=redis with REDIS_URL or
// REDIS_CLUSTER_NODES, REDIS_KEY_PREFIX): one connection the provider owns and closes at shutdown.
import type { Logger } from '../../src/index.js';
import type { StorageProvider, StorageProviderConfig } from '../../src/storage/index.js';
import type { RedisConnectionOptions } from './redis-connection-options.js';
import { RedisStorageProvider } from './redis-storage-provider.js';

export function createRedisStorageProvider(
  config: Extract<StorageProviderConfig, { type: 'redis' }>,
  logger?: Logger,
  now?: () => number,
): StorageProvider {
  const prefix = config.keyPrefix === undefined ? {} : { keyPrefix: config.keyPrefix };
  const connection: RedisConnectionOptions =
    'url' in config ? { url: config.url, ...prefix } : { clusterNodes: config.clusterNodes, ...prefix };
  return new RedisStorageProvider({ connection, ...(logger ? { logger } : {}), ...(now ? { now } : {}) });
}
