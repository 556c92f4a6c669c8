// Public surface of the storage layer: the provider contract with its errors and limits, the built-in providers,
// and `ctx.state`.
export {
  type ContextState,
  createContextState,
  DEFAULT_LIST_LIMIT,
  MAX_LIST_LIMIT,
  type StateListOptions,
  type StateListPage,
  type StateSetOptions,
} from './context-state.js';
export type { CounterAdd, CounterReading, RateDecision, RateRule } from './counters.js';
export {
  createStorageProvider,
  type ModuleStorageProviders,
  type StorageProviderConfig,
  type StorageProviderFactory,
} from './create-storage-provider.js';
export { assertTtlSeconds, expiryFromTtl, isExpired } from './entry-expiry.js';
export { FilesystemStorageProvider, type FilesystemStorageProviderOptions } from './filesystem-provider.js';
export { InMemoryStorageProvider, type InMemoryStorageProviderOptions } from './in-memory-provider.js';
export { parseStateValue, serializeStateValue } from './json-value.js';
export {
  type ClientSubject,
  corruptEntryError,
  logStorageFailure,
  quotaExceededError,
  type StorageFailureSubject,
  type StorageLogger,
  type StorageOperation,
  storageIoError,
} from './storage-errors.js';
export {
  assertStateKey,
  assertStatePrefix,
  quoteKey,
  STATE_KEY_MAX_LENGTH,
  STATE_KEY_PATTERN,
} from './storage-keys.js';
export {
  DEFAULT_MAX_ENTRIES_PER_TENANT,
  DEFAULT_SWEEP_INTERVAL_MS,
  resolveStorageLimits,
  type StorageLimitOptions,
  type StorageLimits,
} from './storage-limits.js';
export {
  providerClosedError,
  type StorageEntry,
  type StorageListOptions,
  type StorageListPage,
  type StorageProvider,
  type StorageSetOptions,
} from './storage-provider.js';
export { StorageService } from './storage-service.js';
export { UsageLedger, type UsageLedgerOptions, type UsageRow } from './usage-ledger.js';
