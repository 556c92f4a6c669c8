// Runs the provider compliance suite against the in-memory provider.
import { runStorageProviderCompliance } from './provider-compliance.js';
import { makeInMemoryProvider } from './storage-test-helpers.js';

runStorageProviderCompliance('InMemoryStorageProvider', makeInMemoryProvider);
