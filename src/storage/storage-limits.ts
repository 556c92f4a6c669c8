// The bounds every provider keeps so storage cannot grow without end: a cap on live entries per tenant, and how
// often expired entries nobody reads again (an unanswered consent round's record, say) are swept away.

import { DEFAULT_MAX_ENTRIES_PER_TENANT, DEFAULT_SWEEP_INTERVAL_MS } from '../config/storage-defaults.js';
import { configurationError } from '../errors/factories.js';

export { DEFAULT_MAX_ENTRIES_PER_TENANT, DEFAULT_SWEEP_INTERVAL_MS };

export interface StorageLimitOptions {
  /** Live entries one tenant may hold; a `set` of a new key beyond it fails with `state_quota_exceeded`. */
  maxEntriesPerTenant?: number;
  /** Milliseconds between sweeps of expired entries; 0 turns the periodic sweep off. */
  sweepIntervalMs?: number;
}

export interface StorageLimits {
  readonly maxEntriesPerTenant: number;
  readonly sweepIntervalMs: number;
}

/** The limits with defaults filled in; throws `McpError(ConfigurationError)` for a value no provider could honour. */
export function resolveStorageLimits(options: StorageLimitOptions): StorageLimits {
  const { maxEntriesPerTenant = DEFAULT_MAX_ENTRIES_PER_TENANT, sweepIntervalMs = DEFAULT_SWEEP_INTERVAL_MS } = options;
  if (!Number.isSafeInteger(maxEntriesPerTenant) || maxEntriesPerTenant < 1) {
    throw configurationError(`Invalid maxEntriesPerTenant ${String(maxEntriesPerTenant)}: use a positive integer`, {
      reason: 'storage_limit_invalid',
    });
  }
  if (!Number.isSafeInteger(sweepIntervalMs) || sweepIntervalMs < 0) {
    throw configurationError(
      `Invalid sweepIntervalMs ${String(sweepIntervalMs)}: use a whole number of milliseconds, or 0 for no sweep`,
      { reason: 'storage_limit_invalid' },
    );
  }
  return { maxEntriesPerTenant, sweepIntervalMs };
}
