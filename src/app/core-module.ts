// The framework's own providers as an ordinary module: configuration, logger, storage and notifier. Every app
// imports it first, so its singletons are built (and their lifecycle hooks run) before any user module's, and a
// testing module overrides them like any other provider.
import { Module } from '../../decorators/module.js';
import type { DynamicModule } from '../../decorators/types.js';
import type { KilnConfig } from '../config/kiln-config.js';
import { KILN_CONFIG, LOGGER, NOTIFIER, STORAGE } from '../di/tokens.js';
import { createLogger, type Logger } from '../logging/index.js';
import { ChangeNotifier } from '../notifications/change-notifier.js';
import { createStorageProvider, type ModuleStorageProviders, StorageService } from '../storage/index.js';

@Module({})
export class KilnCoreModule {
  static forApp(config: KilnConfig, storageProviders: ModuleStorageProviders = {}): DynamicModule {
    return {
      module: KilnCoreModule,
      providers: [
        { provide: KILN_CONFIG, useValue: config },
        {
          provide: LOGGER,
          useFactory: (resolved: KilnConfig) => createLogger({ level: resolved.logLevel, name: 'kiln' }),
          inject: [KILN_CONFIG],
        },
        {
          provide: STORAGE,
          useFactory: async (resolved: KilnConfig, logger: Logger) => {
            const { storage } = resolved;
            const provider =
              storage.type === 'redis' && storageProviders.redis
                ? await storageProviders.redis(storage, logger)
                : createStorageProvider(storage, logger);
            return new StorageService(provider, logger);
          },
          inject: [KILN_CONFIG, LOGGER],
        },
        { provide: NOTIFIER, useFactory: () => new ChangeNotifier() },
      ],
      exports: [KILN_CONFIG, LOGGER, STORAGE, NOTIFIER],
    };
  }
}
