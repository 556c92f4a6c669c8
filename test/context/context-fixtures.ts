// Test helper: builds a Context the way the pipeline does, from a seed with overridable parts and services whose
// storage opening is observable.
import type { ErrorContract } from '../../decorators/types.js';
import { type BuiltContext, type ContextSeed, createContext } from '../../src/context/create-context.js';
import { compileContract } from '../../src/context/error-contract.js';
import { createLogger } from '../../src/logging/index.js';
import { InMemoryStorageProvider, StorageService } from '../../src/storage/index.js';
import { captureDestination } from '../logging/capture-destination.js';

export interface ContextFixture extends BuiltContext {
  /** Tenants whose state was opened, in order. */
  readonly openedState: (string | undefined)[];
  readonly storage: StorageService;
}

export function testSeed(overrides: Partial<ContextSeed> = {}): ContextSeed {
  return {
    requestId: 'REQ01-ABCDE',
    tenantId: 'acme',
    operation: 'test_operation',
    era: 'envelope',
    signal: new AbortController().signal,
    clientCapabilities: undefined,
    channel: {},
    ...overrides,
  };
}

export function buildContext(overrides: Partial<ContextSeed> = {}, contract: ErrorContract = []): ContextFixture {
  const storage = new StorageService(new InMemoryStorageProvider());
  const openedState: (string | undefined)[] = [];
  const built = createContext(
    testSeed(overrides),
    {
      logger: createLogger({ level: 'debug', destination: captureDestination() }),
      logFloor: 'debug',
      stateFor: (tenantId) => {
        openedState.push(tenantId);
        return storage.forTenant(tenantId);
      },
    },
    compileContract(contract),
  );
  return { ...built, openedState, storage };
}
