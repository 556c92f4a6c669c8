// Runs the provider compliance suite against the in-memory provider.
import { runStorageProviderCompliance } from './provider-compliance.js';
import { makeInMemoryProvider } from './storage-test-helpers.js';

// Entries are held as written, so nothing can make one corrupt.
runStorageProviderCompliance('InMemoryStorageProvider', makeInMemoryProvider, {
  quota: true,
  sweep: true,
  corruptEntries: false,
});
