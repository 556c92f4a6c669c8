// Property: the tool pipeline answers any arguments, to any tool of the examples, with a CallToolResult. Arguments
// are derived from each tool's advertised inputSchema (schema-arbitraries.ts) and sent through the testing kit.

import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EverythingModule } from '../../examples/everything/everything.module.js';
import { NotesModule } from '../../examples/notes/notes.module.js';
import { expectNoLeak } from './answer-hygiene.js';
import { fuzzParameters, fuzzTimeout } from './fuzz-settings.js';
import { POLLUTION_MARK } from './hostile-values.js';
import { type JsonSchema, toolArguments } from './schema-arbitraries.js';
import { tenantSnapshot } from './tenant-snapshot.js';

const RUNS = 200;
/** Everything-example fixtures that answer -32603 by design (the conformance error fixture, the Tasks failures). */
const FAILS_ON_PURPOSE = new Set(['test_error_handling', 'failing_job', 'protocol_error_job']);

interface AdvertisedTool {
  readonly name: string;
  readonly inputSchema: JsonSchema;
}

describe.each([
  ['notes', NotesModule],
  ['everything', EverythingModule],
] as const)('tool pipeline of the %s example under fuzzed arguments', (_label, module) => {
  let app: TestingApp;
  let tools: AdvertisedTool[];

  beforeAll(async () => {
    app = await createTestingModule({ imports: [module] }).compile();
    // The schemas a client sees, not the zod definitions behind them: what an agent builds its arguments from.
    const client = await app.connectClient({ era: 'envelope' });
    tools = (await client.listTools()).tools as AdvertisedTool[];
  });
  afterAll(() => app.close());

  it(
    'always answers with a CallToolResult, errors carry the envelope, nothing leaks, rejected calls change nothing',
    async () => {
      const schemas = new Map(tools.map((tool) => [tool.name, tool.inputSchema]));
      // Only the tool's name goes into the counterexample, so a failure prints what to replay and not the schema.
      const call = fc
        .constantFrom(...schemas.keys())
        .chain((tool) => toolArguments(schemas.get(tool)!).map((fuzzed) => ({ tool, ...fuzzed })));
      await fc.assert(
        fc.asyncProperty(call, async ({ tool, args, valid }) => {
          const before = await tenantSnapshot(app);
          const result = await app.callTool(tool, args);

          expect(Array.isArray(result.content)).toBe(true);
          expectNoLeak(result, args);
          expect(({} as Record<string, unknown>)[POLLUTION_MARK]).toBeUndefined();
          if (result.isError) {
            expectErrorEnvelope(result);
            // A round that asked for input mints its requestState record on purpose (with a TTL), so only refusals
            // are held to leaving the state untouched.
            if (errorReason(result) !== 'input_required') expect(await tenantSnapshot(app)).toEqual(before);
          }
          // An internal error is a server bug surfacing, except from the fixtures whose job is to fail that way.
          if (!FAILS_ON_PURPOSE.has(tool)) expect(errorCode(result)).not.toBe(JsonRpcErrorCode.InternalError);
          // The advertised schema and the parser behind it agree: what the schema allows is never refused as invalid.
          if (valid) expect(errorCode(result)).not.toBe(JsonRpcErrorCode.InvalidParams);
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, 150),
  );
});

describe.each(['handshake', 'envelope'] as const)('notes tools over a connected SDK client (%s era)', (era) => {
  let app: TestingApp;
  let client: Client;
  let schemas: Map<string, JsonSchema>;

  beforeAll(async () => {
    app = await createTestingModule({ imports: [NotesModule] }).compile();
    // Every confirmation is declined, so the delete tool's consent round completes without deleting anything.
    client = await app.connectClient({ era, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    schemas = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool.inputSchema as JsonSchema]));
  });
  afterAll(() => app.close());

  it(
    'answers object arguments with a result through the era bridge; refusals and declined deletes change nothing',
    async () => {
      const call = fc.constantFrom(...schemas.keys()).chain((tool) =>
        toolArguments(schemas.get(tool)!)
          .filter(({ args }) => typeof args === 'object' && args !== null && !Array.isArray(args))
          .map(({ args }) => ({ tool, args: args as Record<string, unknown> })),
      );
      await fc.assert(
        fc.asyncProperty(call, async ({ tool, args }) => {
          const before = await tenantSnapshot(app);
          const result = await client.callTool({ name: tool, arguments: args });
          expect(Array.isArray(result.content)).toBe(true);
          expectNoLeak(result, args);
          if (result.isError) {
            expectErrorEnvelope(result);
            expect(await tenantSnapshot(app)).toEqual(before);
          }
        }),
        fuzzParameters(RUNS / 2),
      );
    },
    fuzzTimeout(RUNS / 2, 150),
  );
});

/** The error contract every failed call keeps: code, message and the request id to quote, on structuredContent. */
function expectErrorEnvelope(result: { structuredContent?: unknown }): void {
  expect(result.structuredContent).toMatchObject({
    error: { code: expect.any(Number), message: expect.any(String), data: { requestId: expect.any(String) } },
  });
}

function errorReason(result: { structuredContent?: unknown }): string | undefined {
  return (result.structuredContent as { error?: { data?: { reason?: string } } } | undefined)?.error?.data?.reason;
}

function errorCode(result: { structuredContent?: unknown }): number | undefined {
  return (result.structuredContent as { error?: { code?: number } } | undefined)?.error?.code;
}
