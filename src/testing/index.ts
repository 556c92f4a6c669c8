// The public surface of `mcp-kiln/testing`: mock contexts and their read-back helpers, single-tool contract runs,
// and testing modules that compile the real module graph with providers overridden.
import 'reflect-metadata';

export type { EnrichKind } from '../context/enrich.js';
export { type AskedInput, expectInputRequired } from './expect-input-required.js';
export {
  type CapturedLog,
  type CapturedProgress,
  getContentBlocks,
  getEnrichment,
  getEnrichmentKinds,
  getLogs,
  getProgress,
} from './mock-capture.js';
export { createInMemoryStorage, createMockContext, type MockContext, type MockContextOptions } from './mock-context.js';
export { type ContractProviders, runToolContract, type ToolContractOptions } from './run-tool-contract.js';
export {
  type MintTokenOptions,
  startTestIssuer,
  type TestIssuer,
  type TestIssuerAlgorithm,
  type TestIssuerOptions,
} from './test-issuer.js';
export {
  type ConnectClientOptions,
  ENVELOPE_PROTOCOL_VERSION,
  TestingApp,
  type TestingHttpOptions,
  type TestingPrincipal,
} from './testing-app.js';
export {
  createTestingModule,
  type FactoryOverride,
  type OverrideBy,
  type TestingCompileOptions,
  type TestingModuleBuilder,
  type TestingModuleMetadata,
} from './testing-module.js';
