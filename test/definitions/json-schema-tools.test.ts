// Tools declared with raw JSON Schema 2020-12 (`inputSchema` / `outputSchema`): checked at boot (a valid 2020-12
// object schema whose $refs resolve locally), advertised verbatim (output widened by the error envelope), and run
// through the same pipeline as zod tools, on success and failure alike.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { Enrichment, Errors, type HandlerContext, Tool } from 'mcp-kiln';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, bootProblem, bootProblems, capturedLog, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

const bootTools = (...tools: (new (...args: never[]) => unknown)[]) => bootProblem(fixtureModule({ tools }));

describe('boot checks of a raw input schema', () => {
  it.each([
    [
      'a schema that is not valid 2020-12',
      { type: 'object', properties: { q: { type: 'text' } } },
      /inputSchema not a valid JSON Schema 2020-12: schema\/properties\/q\/type must be equal to one of the allowed values/,
    ],
    ['a root that is not an object', { type: 'array' }, /inputSchema must be a JSON Schema object with type: "object"/],
    [
      'a network $ref',
      { type: 'object', properties: { q: { $ref: 'https://example.com/q.json', description: 'Q.' } } },
      /inputSchema can't resolve reference https:\/\/example.com\/q.json/,
    ],
    [
      'another dialect',
      { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' },
      /\$schema is http:\/\/json-schema.org\/draft-07\/schema#; Kiln serves JSON Schema 2020-12/,
    ],
  ])('rejects %s', async (_label, schema, message) => {
    @Tool('find_items', { description: 'Finds items.', inputSchema: schema as { type: 'object' } })
    class FindItemsTool {
      handle() {
        return 'found';
      }
    }
    expect(await bootTools(FindItemsTool)).toMatch(message);
  });

  it('rejects a tool declaring both input kinds, or neither', async () => {
    @Tool('both_inputs', {
      description: 'Declares twice.',
      input: z.object({}),
      inputSchema: { type: 'object' },
    })
    class BothInputsTool {
      handle() {
        return 'x';
      }
    }
    // @ts-expect-error neither input nor inputSchema: handle has nothing to be typed from
    @Tool('no_input', { description: 'Declares nothing.' })
    class NoInputTool {
      handle() {
        return 'x';
      }
    }
    expect(await bootProblems(fixtureModule({ tools: [BothInputsTool, NoInputTool] }))).toEqual([
      'Tool both_inputs (BothInputsTool): declare its arguments with exactly one of input (zod) and inputSchema (JSON Schema).',
      'Tool no_input (NoInputTool): declare its arguments with exactly one of input (zod) and inputSchema (JSON Schema).',
    ]);
  });

  it('lints a raw schema like a zod one: every property needs a description', async () => {
    @Tool('find_items', {
      description: 'Finds items.',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, additionalProperties: false },
    })
    class FindItemsTool {
      handle() {
        return 'found';
      }
    }
    expect(await bootTools(FindItemsTool)).toBe(
      'Tool find_items (FindItemsTool): input fields without .describe(): query. Every field needs a description. [field-description]',
    );
  });

  it('warns about an open root and an unknown format, and serves the schema anyway', async () => {
    @Tool('find_items', {
      description: 'Finds items.',
      inputSchema: {
        type: 'object',
        properties: { day: { type: 'string', format: 'day-of-week', description: 'D.' } },
      },
    })
    class FindItemsTool {
      handle() {
        return 'found';
      }
    }
    const log = capturedLog();
    await bootApp(fixtureModule({ tools: [FindItemsTool] }), log.options);
    const warnings = log.lines.filter((line) => line.level === 'warning').map((line) => String(line.msg));
    expect(warnings).toEqual([
      'Tool find_items (FindItemsTool): inputSchema: unknown format "day-of-week" ignored in schema at path "#/properties/day"',
      expect.stringMatching(/^Tool find_items \(FindItemsTool\): inputSchema leaves undeclared keys open at the root/),
    ]);
  });
});

const Contract = [
  {
    reason: 'shelf_missing',
    code: JsonRpcErrorCode.NotFound,
    when: 'No shelf has that code.',
    recovery: 'List the shelves and call again with one of their codes.',
  },
] as const;
const ShelfEnrichment = { totalCount: z.number().describe('Items on the shelf before the limit') };

@Tool('shelf_items', {
  description: 'Lists the items on one shelf.',
  inputSchema: {
    type: 'object',
    properties: {
      shelf: { type: 'string', pattern: '^[A-Z][0-9]$', description: 'Shelf code such as A3.' },
      limit: { type: 'integer', minimum: 1, default: 2, description: 'How many items to return.' },
    },
    required: ['shelf'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      items: { type: 'array', items: { type: 'string' }, description: 'Item names.' },
      shelf: { type: 'string', description: 'The shelf listed.' },
    },
    required: ['items', 'shelf'],
    additionalProperties: false,
  },
})
@Errors(Contract)
@Enrichment(ShelfEnrichment)
class ShelfItemsTool {
  handle(
    input: { shelf: string; limit?: number },
    ctx: HandlerContext<typeof Contract, typeof ShelfEnrichment>,
  ): { items: string[]; shelf: string } {
    if (input.shelf === 'Z9') throw ctx.fail('shelf_missing');
    ctx.enrich.total(3);
    if (input.shelf === 'B1')
      return { items: ['lamp'], shelf: 'B1', colour: 'red' } as { items: string[]; shelf: string };
    return { items: ['lamp', 'desk', 'chair'].slice(0, input.limit), shelf: input.shelf };
  }
}

const validator = new AjvJsonSchemaValidator();
const validate = (schema: unknown, value: unknown) =>
  validator.getValidator(schema as Parameters<typeof validator.getValidator>[0])(value).valid;

describe('a tool with raw input and output schemas', () => {
  it('fills defaults, validates its output and merges its enrichment', async () => {
    const app = await bootApp(fixtureModule({ tools: [ShelfItemsTool] }));
    const result = await app.callTool('shelf_items', { shelf: 'A3' });
    expect(result.structuredContent).toEqual({ items: ['lamp', 'desk'], shelf: 'A3', totalCount: 3 });
    expect(result.isError).toBeUndefined();
  });

  it('advertises the output widened: the success fields with their enrichment, or the error envelope', async () => {
    const app = await bootApp(fixtureModule({ tools: [ShelfItemsTool] }));
    const { outputSchema } = app.catalog().tools[0] ?? {};
    expect(validate(outputSchema, { items: [], shelf: 'A3', totalCount: 0 })).toBe(true);
    expect(validate(outputSchema, { items: [], shelf: 'A3' })).toBe(false);
    expect(validate(outputSchema, { error: { code: -32001, message: 'Gone.' } })).toBe(true);
    const failure = await app.callTool('shelf_items', { shelf: 'Z9' });
    expect(validate(outputSchema, failure.structuredContent)).toBe(true);
  });

  it('answers invalid arguments with the invalid_arguments envelope', async () => {
    const app = await bootApp(fixtureModule({ tools: [ShelfItemsTool] }));
    const result = await app.callTool('shelf_items', { shelf: 'a3', limit: 0 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: {
        code: JsonRpcErrorCode.InvalidParams,
        data: {
          reason: 'invalid_arguments',
          issues: [
            { path: 'shelf', message: 'Invalid input: must match pattern "^[A-Z][0-9]$"' },
            { path: 'limit', message: 'Invalid input: must be >= 1' },
          ],
        },
      },
    });
  });

  it('masks a result that breaks the declared output schema as an internal error', async () => {
    const log = capturedLog();
    const app = await bootApp(fixtureModule({ tools: [ShelfItemsTool] }), log.options);
    const result = await app.callTool('shelf_items', { shelf: 'B1' });
    expect(result.structuredContent).toMatchObject({ error: { code: JsonRpcErrorCode.InternalError } });
    expect(JSON.stringify(log.lines)).toContain('returned output that breaks its output schema');
  });

  it('rejects an output schema whose root is not an object', async () => {
    @Tool('list_names', {
      description: 'Lists names.',
      input: z.object({}),
      outputSchema: { type: 'array', items: { type: 'string' } } as unknown as { type: 'object' },
    })
    class ListNamesTool {
      handle() {
        return {};
      }
    }
    expect(await bootTools(ListNamesTool)).toMatch(
      /outputSchema must be a JSON Schema object with type: "object" at the root; wrap a list or a scalar/,
    );
  });
});
