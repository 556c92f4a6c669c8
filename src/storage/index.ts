// Public surface of the storage layer: the provider contract, the built-in providers, and `ctx.state`.
export {
  type ContextState,
  createContextState,
  DEFAULT_LIST_LIMIT,
  MAX_LIST_LIMIT,
  type StateListOptions,
  type StateListPage,
  type StateSetOptions,
} from './context-state.js';
export { createStorageProvider, type StorageProviderConfig } from './create-storage-provider.js';
export { assertTtlSeconds, expiryFromTtl, isExpired } from './entry-expiry.js';
export { FilesystemStorageProvider, type FilesystemStorageProviderOptions } from './filesystem-provider.js';
export { InMemoryStorageProvider, type InMemoryStorageProviderOptions } from './in-memory-provider.js';
export { parseStateValue, serializeStateValue } from './json-value.js';
export { assertStateKey, assertStatePrefix, STATE_KEY_MAX_LENGTH, STATE_KEY_PATTERN } from './storage-keys.js';
export {
  providerClosedError,
  type StorageEntry,
  type StorageListOptions,
  type StorageListPage,
  type StorageProvider,
  type StorageSetOptions,
} from './storage-provider.js';
export { StorageService } from './storage-service.js';
