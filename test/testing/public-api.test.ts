// Pins the runtime exports of `mcp-kiln/testing`: adding or removing one must be a deliberate change here.
import * as testing from 'mcp-kiln/testing';
import { expect, it } from 'vitest';

it('exports exactly the testing kit', () => {
  expect(Object.keys(testing).sort()).toEqual([
    'MODERN_PROTOCOL_VERSION',
    'TestingApp',
    'createInMemoryStorage',
    'createMockContext',
    'createTestingModule',
    'getContentBlocks',
    'getEnrichment',
    'getEnrichmentKinds',
    'getLogs',
    'getProgress',
    'runToolContract',
  ]);
});
