// The app-wide owner of the configured StorageProvider. Request code never sees the provider: it gets a
// tenant-scoped ContextState from `forTenant`, which is how `ctx.state` is built.
import { type ContextState, createContextState } from './context-state.js';
import type { StorageLogger } from './storage-errors.js';
import type { StorageProvider } from './storage-provider.js';

export class StorageService {
  /** `logger` hears of stored values `list` had to skip because they are not JSON. */
  constructor(
    private readonly provider: StorageProvider,
    private readonly logger?: StorageLogger,
  ) {}

  /** The state API scoped to `tenantId`; with no tenant every call rejects with InvalidRequest. */
  forTenant(tenantId: string | undefined): ContextState {
    return createContextState(this.provider, tenantId, this.logger);
  }

  /**
   * The backend as Kiln's call policies use it (rate limits, quotas, caches, usage): in namespaces no request can
   * name, never through a tenant's ctx.state.
   */
  policyStore(): StorageProvider {
    return this.provider;
  }

  /**
   * Resolves when the backend answers a read, for readiness checks: a key of a tenant no request can name (tenant
   * ids from tokens never hold a NUL), so nothing a user stored is touched.
   */
  async probe(): Promise<void> {
    await this.provider.get('\u0000kiln', 'readiness');
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
