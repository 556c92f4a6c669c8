// Builds the StorageProvider named by configuration, so choosing a backend is data rather than code. Backends that
// live in modules (Redis) arrive as factories, since the storage layer imports no module.
import type { RedisConfig } from '../config/kiln-config.js';
import { configurationError } from '../errors/factories.js';
import type { Logger } from '../logging/index.js';
import { FilesystemStorageProvider } from './filesystem-provider.js';
import { InMemoryStorageProvider } from './in-memory-provider.js';
import type { StorageLogger } from './storage-errors.js';
import type { StorageLimitOptions } from './storage-limits.js';
import type { StorageProvider } from './storage-provider.js';

export type StorageProviderConfig = (
  | { type: 'in-memory' }
  | { type: 'filesystem'; path: string }
  | ({ type: 'redis' } & RedisConfig)
) &
  StorageLimitOptions;

/** Builds a backend a module provides (`mcp-kiln/redis`) from the configuration that selected it. */
export type StorageProviderFactory = (
  config: Extract<StorageProviderConfig, { type: 'redis' }>,
  logger: Logger | undefined,
  /** The app's clock (createApp `clock`), when it has its own. */
  now?: () => number,
) => StorageProvider | Promise<StorageProvider>;

export interface ModuleStorageProviders {
  readonly redis?: StorageProviderFactory;
}

/** `logger` receives the failure detail (paths, errno) a client is never shown. */
export function createStorageProvider(
  config: StorageProviderConfig,
  logger?: StorageLogger,
  now?: () => number,
): StorageProvider {
  const { maxEntriesPerTenant, sweepIntervalMs } = config;
  const shared = { maxEntriesPerTenant, sweepIntervalMs, ...(logger ? { logger } : {}), ...(now ? { now } : {}) };
  switch (config.type) {
    case 'in-memory':
      return new InMemoryStorageProvider(shared);
    case 'filesystem':
      if (typeof config.path !== 'string' || config.path === '') {
        throw configurationError('Filesystem storage needs a non-empty path', { reason: 'storage_path_missing' });
      }
      return new FilesystemStorageProvider({ root: config.path, ...shared });
    case 'redis':
      throw configurationError(
        'STORAGE_PROVIDER_TYPE=redis needs the Redis module: start the app with createApp from mcp-kiln, which ' +
          'loads mcp-kiln/redis, or pass createApp({ storageProviders: { redis } }).',
        { reason: 'storage_type_unknown' },
      );
    default: {
      // Configuration may come from untyped sources (environment, JSON), so an unknown type is possible at runtime.
      const type = (config as { type?: unknown }).type;
      throw configurationError(
        `Unknown storage provider type ${JSON.stringify(type)}: use "in-memory", "filesystem" or "redis"`,
        {
          reason: 'storage_type_unknown',
        },
      );
    }
  }
}
