// The framework's own providers as an ordinary module: configuration, logger, storage and notifier. Every app
// imports it first, so its singletons are built (and their lifecycle hooks run) before any user module's, and a
// testing module overrides them like any other provider.
import { Module } from '../../decorators/module.js';
import type { DynamicModule } from '../../decorators/types.js';
import type { KilnConfig } from '../config/kiln-config.js';
import { KILN_CONFIG, LOGGER, NOTIFIER, STORAGE, TELEMETRY, USAGE } from '../di/tokens.js';
import { adoptLogger, createLogger, isPinoLogger, type Logger } from '../logging/index.js';
import { ChangeNotifier } from '../notifications/change-notifier.js';
import { createStorageProvider } from '../storage/create-storage-provider.js';
import { type ModuleStorageProviders, StorageService } from '../storage/index.js';
import { traceStorageProvider } from '../storage/traced-storage-provider.js';
import { UsageLedger } from '../storage/usage-ledger.js';
import { activeTelemetry, type KilnTelemetry, resolveTelemetry } from '../telemetry/kiln-telemetry.js';
import type { CreateAppOptions } from './app-options.js';

@Module({})
export class KilnCoreModule {
  static forApp(
    config: KilnConfig,
    storageProviders: ModuleStorageProviders = {},
    logger?: CreateAppOptions['logger'],
    clock?: () => number,
  ): DynamicModule {
    return {
      module: KilnCoreModule,
      providers: [
        { provide: KILN_CONFIG, useValue: config },
        // First: the logger and storage are instrumented according to what it finds.
        { provide: TELEMETRY, useFactory: resolveTelemetry },
        {
          provide: LOGGER,
          useFactory: (resolved: KilnConfig, telemetry: KilnTelemetry) =>
            isPinoLogger(logger)
              ? adoptLogger(logger, 'kiln')
              : createLogger({
                  level: resolved.logLevel,
                  name: 'kiln',
                  traceCorrelation: telemetry.tracer ? telemetry.api : undefined,
                  format: resolved.logFormat,
                  ...(logger ? { pino: logger } : {}),
                }),
          inject: [KILN_CONFIG, TELEMETRY],
        },
        {
          provide: STORAGE,
          useFactory: async (resolved: KilnConfig, logger: Logger, telemetry: KilnTelemetry) => {
            const { storage } = resolved;
            const provider =
              storage.type === 'redis' && storageProviders.redis
                ? await storageProviders.redis(storage, logger, clock)
                : createStorageProvider(storage, logger, clock);
            // Each provider call a span and a latency sample, when an SDK is registered.
            const traced = activeTelemetry(telemetry);
            return new StorageService(traced ? traceStorageProvider(provider, traced) : provider, logger);
          },
          inject: [KILN_CONFIG, LOGGER, TELEMETRY],
        },
        { provide: NOTIFIER, useFactory: () => new ChangeNotifier() },
        {
          provide: USAGE,
          useFactory: (resolved: KilnConfig, storage: StorageService, logger: Logger) =>
            new UsageLedger({
              enabled: resolved.usage.enabled,
              store: storage.policyStore?.(),
              now: clock ?? Date.now,
              flushMs: resolved.usage.flushMs,
              logger,
            }),
          inject: [KILN_CONFIG, STORAGE, LOGGER],
        },
      ],
      exports: [KILN_CONFIG, LOGGER, STORAGE, NOTIFIER, TELEMETRY, USAGE],
    };
  }
}
