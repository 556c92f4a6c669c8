// The in-memory session registry (the default of one process) keeps the contract every registry keeps.
import { InMemorySessionRegistry } from '../../modules/http/index.js';
import { runSessionRegistryContract } from './session-registry-contract.js';

runSessionRegistryContract('InMemorySessionRegistry', async () => ({
  registry: new InMemorySessionRegistry(),
  close: async () => undefined,
}));
