// `mcp-kiln/storage`: what a storage backend's author needs (the provider contract, its errors, limits, expiry rules
// and counters), the built-in providers, and the types of `ctx.state` and the StorageService. The key rules and JSON
// handling of `ctx.state` are Kiln's own and stay inside.
export type { ContextState, StateListOptions, StateListPage, StateSetOptions } from './context-state.js';
export type { CounterAdd, CounterReading, RateDecision, RateRule } from './counters.js';
export type {
  ModuleStorageProviders,
  StorageProviderConfig,
  StorageProviderFactory,
} from './create-storage-provider.js';
export { assertTtlSeconds, expiryFromTtl, isExpired } from './entry-expiry.js';
export { FilesystemStorageProvider, type FilesystemStorageProviderOptions } from './filesystem-provider.js';
export { InMemoryStorageProvider, type InMemoryStorageProviderOptions } from './in-memory-provider.js';
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
