// The app-wide owner of the configured StorageProvider. Request code never sees the provider: it gets a
// tenant-scoped ContextState from `forTenant`, which is how `ctx.state` is built.
import { activeTelemetry, type KilnTelemetry } from '../telemetry/kiln-telemetry.js';
import { type ContextState, createContextState } from './context-state.js';
import type { StorageLogger } from './storage-errors.js';
import type { StorageProvider } from './storage-provider.js';
import { traceStorageProvider } from './traced-storage-provider.js';

export class StorageService {
  private readonly provider: StorageProvider;

  /**
   * `logger` hears of stored values `list` had to skip because they are not JSON; with `telemetry` from a registered
   * SDK every provider call is a span and a duration sample.
   */
  constructor(
    provider: StorageProvider,
    private readonly logger?: StorageLogger,
    telemetry?: KilnTelemetry,
  ) {
    const active = telemetry && activeTelemetry(telemetry);
    this.provider = active ? traceStorageProvider(provider, active) : provider;
  }

  /** The state API scoped to `tenantId`; with no tenant every call rejects with InvalidRequest. */
  forTenant(tenantId: string | undefined): ContextState {
    return createContextState(this.provider, tenantId, this.logger);
  }

  /** Closes the provider; to be called once, at shutdown. */
  close(): Promise<void> {
    return this.provider.close();
  }

  /** Lifecycle hook: the app closes storage last, after every module's onModuleDestroy. */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}
