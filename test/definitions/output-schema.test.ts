// The advertised outputSchema is widened so both a success result and the `{ error }` envelope validate in a client
// that checks structuredContent before isError; the strict effective schema the server parses with stays strict.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { Enrichment, Errors, type HandlerContext, Tool } from 'mcp-kiln';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CompiledTool } from '../../src/definitions/compiled-tool.js';
import { widenOutputSchema } from '../../src/definitions/schema/output-schema.js';
import { bootApp, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

const Input = z.object({ query: z.string().describe('Words to search for') });
const Output = z.object({
  items: z.array(z.string().describe('An item')).describe('Matching items'),
  nextCursor: z.string().optional().describe('Where the next page starts'),
});
const SearchEnrichment = {
  totalCount: z.number().describe('Matches before the limit'),
  notice: z.string().optional().describe('Guidance when nothing matched'),
};
const Contract = [
  {
    reason: 'index_offline',
    code: JsonRpcErrorCode.ServiceUnavailable,
    when: 'The search index is offline.',
    recovery: 'Wait a minute and call the tool again.',
  },
  {
    reason: 'bad_query',
    code: JsonRpcErrorCode.InvalidParams,
    when: 'The query could not be parsed.',
    recovery: 'Remove operators from the query and retry.',
  },
] as const;

@Tool('search_items', { description: 'Searches items.', input: Input, output: Output })
@Enrichment(SearchEnrichment)
@Errors(Contract)
class SearchItemsTool {
  handle(input: z.output<typeof Input>, ctx: HandlerContext<typeof Contract, typeof SearchEnrichment>) {
    if (input.query === 'offline') throw ctx.fail('index_offline');
    ctx.enrich.total(1);
    return { items: [input.query] };
  }
}

@Tool('say_hello', { description: 'Says hello.', input: Input })
class SayHelloTool {
  handle() {
    return 'hello';
  }
}

const validator = new AjvJsonSchemaValidator();

async function compiled(): Promise<{ tool: CompiledTool; app: Awaited<ReturnType<typeof bootApp>> }> {
  const app = await bootApp(fixtureModule({ tools: [SearchItemsTool, SayHelloTool] }));
  return { tool: app.runtime.tools.get('search_items') as CompiledTool, app };
}

function validate(schema: unknown, value: unknown): boolean {
  return validator.getValidator(schema as Parameters<typeof validator.getValidator>[0])(value).valid;
}

describe('the advertised outputSchema', () => {
  it('is an object whose success fields are all optional, with an error property and an anyOf refinement', async () => {
    const { tool } = await compiled();
    const schema = tool.definition.outputSchema as Record<string, unknown>;
    expect(schema.type).toBe('object');
    expect(schema.required).toBeUndefined();
    expect(Object.keys(schema.properties as object)).toEqual(['items', 'nextCursor', 'totalCount', 'notice', 'error']);
    expect(schema.anyOf).toEqual([
      { not: { required: ['error'] }, required: ['items', 'totalCount'] },
      { required: ['error'] },
    ]);
    expect(tool.definition.outputSchema).toEqual(tool.advertisedOutputSchema);
  });

  it('names the declared reasons as examples without constraining data.reason to them', async () => {
    const { tool } = await compiled();
    const reason = (
      tool.definition.outputSchema as {
        properties: { error: { properties: { data: { properties: { reason: Record<string, unknown> } } } } };
      }
    ).properties.error.properties.data.properties.reason;
    expect(reason.type).toBe('string');
    expect(reason.enum).toBeUndefined();
    expect(reason.examples).toEqual(['index_offline', 'bad_query']);
    expect(reason.description).toContain('index_offline, bad_query');
  });

  it('validates a real success result and a real failure envelope from the same tool', async () => {
    const { tool, app } = await compiled();
    const success = await app.callTool('search_items', { query: 'lamp' });
    const failure = await app.callTool('search_items', { query: 'offline' });
    expect(failure.isError).toBe(true);
    expect(validate(tool.definition.outputSchema, success.structuredContent)).toBe(true);
    expect(validate(tool.definition.outputSchema, failure.structuredContent)).toBe(true);
  });

  it('validates an envelope carrying a reason the contract does not declare', async () => {
    const { tool } = await compiled();
    const envelope = {
      error: { code: -32001, message: 'Gone.', data: { reason: 'service_specific', requestId: 'R' } },
    };
    expect(validate(tool.definition.outputSchema, envelope)).toBe(true);
  });

  it('rejects a success result missing a required field, and an envelope missing its message', async () => {
    const { tool } = await compiled();
    expect(validate(tool.definition.outputSchema, { items: ['lamp'] })).toBe(false);
    expect(validate(tool.definition.outputSchema, {})).toBe(false);
    expect(validate(tool.definition.outputSchema, { error: { code: -32603 } })).toBe(false);
    expect(validate(tool.definition.outputSchema, { items: 'lamp', totalCount: 1 })).toBe(false);
  });

  it('is absent for a content-only tool', async () => {
    const { app } = await compiled();
    expect(app.runtime.tools.get('say_hello')?.definition.outputSchema).toBeUndefined();
  });
});

describe('the strict effective schema', () => {
  it('still rejects a missing required output or enrichment field, and an error key', async () => {
    const { tool } = await compiled();
    const output = tool.output;
    expect(output?.check({ items: ['lamp'], totalCount: 1 }).ok).toBe(true);
    expect(output?.check({ items: ['lamp'] }).ok).toBe(false);
    expect(output?.check({ totalCount: 1 }).ok).toBe(false);
    expect(output?.check({ items: [], totalCount: 0, error: { code: 1, message: 'x' } }).ok).toBe(false);
  });
});

describe('widenOutputSchema', () => {
  it('keeps no required list on the success branch when nothing was required', () => {
    const widened = widenOutputSchema(
      { type: 'object', properties: { note: { type: 'string' } }, additionalProperties: false },
      [],
    );
    expect(widened.anyOf).toEqual([{ not: { required: ['error'] } }, { required: ['error'] }]);
    expect(widened.additionalProperties).toBe(false);
    expect(validate(widened, {})).toBe(true);
    expect(validate(widened, { error: { code: -32603, message: 'Boom.' } })).toBe(true);
  });

  it('describes the reason generically when the tool declares no contract', () => {
    const widened = widenOutputSchema({ type: 'object', properties: {} }, []);
    const reason = (
      widened.properties as { error: { properties: { data: { properties: { reason: Record<string, unknown> } } } } }
    ).error.properties.data.properties.reason;
    expect(reason).toEqual({ type: 'string', description: 'Machine-readable reason, when one applies.' });
  });
});
