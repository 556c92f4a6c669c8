// createApp: compile the module graph and, unless `serve: false`, serve it the way the configuration says (listen).
// Serving, createApp is the process's entry: a boot error is written as its problem list and the process exits 1
// (boot-failure.ts). `serve: false` returns the app unserved (and rejects with the KilnBootError), for
// `app.serve(host)` with hosts of your choosing, scripts and tests.
import type { ModuleRef } from '../../decorators/types.js';
import type { CreateAppOptions } from '../app/app-options.js';
import { compileApp } from '../app/compile-app.js';
import { KilnApp } from '../app/kiln-app.js';
import type { StorageProviderFactory } from '../storage/index.js';
import { exitOnBootFailure } from './boot-failure.js';
import { listen } from './listen.js';

/** The Redis backend, loaded by the module's public entry only when STORAGE_PROVIDER_TYPE=redis selects it. */
const loadRedisStorage: StorageProviderFactory = async (config, logger, now) => {
  const { createRedisStorageProvider } = await import('mcp-kiln/redis');
  return createRedisStorageProvider(config, logger, now);
};

export async function createApp(
  root: ModuleRef,
  options: CreateAppOptions & { serve?: boolean } = {},
): Promise<KilnApp> {
  const storageProviders = { redis: loadRedisStorage, ...options.storageProviders };
  const boot = async () => {
    const app = new KilnApp(await compileApp(root, { ...options, storageProviders }), options);
    if (options.serve ?? true) await listen(app, options.env ? { env: options.env } : {});
    return app;
  };
  if (options.serve === false) return boot();
  return exitOnBootFailure(options.name ?? 'The app', boot);
}
