// Compile-time guarantees of @Tool: the class's handle() must accept the parsed input and return what the output
// schema accepts, so a mismatched handler fails to compile at the decorator.
import { type Context, Tool } from 'mcp-kiln';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const Input = z.object({
  query: z.string().describe('Words to search for'),
  limit: z.number().default(10).describe('Cap'),
});
const Output = z.object({ items: z.array(z.string().describe('An item')).describe('Matching items') });

describe('@Tool', () => {
  it('accepts a handler typed from the schemas, and one that ignores its input', () => {
    @Tool('search_items', { description: 'Searches items.', input: Input, output: Output })
    class SearchItemsTool {
      handle(input: z.output<typeof Input>, _ctx: Context) {
        return { items: [input.query.repeat(input.limit)] };
      }
    }
    @Tool('list_items', { description: 'Lists items.', input: Input, output: Output })
    class ListItemsTool {
      async handle() {
        return { items: [] };
      }
    }
    void [SearchItemsTool, ListItemsTool];
  });

  it('rejects a handler whose input parameter cannot take the parsed input', () => {
    // @ts-expect-error handle takes a number, but the input schema parses to { query, limit }
    @Tool('search_items', { description: 'Searches items.', input: Input, output: Output })
    class NumberInputTool {
      handle(input: number) {
        return { items: [String(input)] };
      }
    }
    // @ts-expect-error query is a string in the schema, not a number
    @Tool('search_items', { description: 'Searches items.', input: Input, output: Output })
    class WrongFieldTool {
      handle(input: { query: number }) {
        return { items: [String(input.query)] };
      }
    }
    // @ts-expect-error handle demands a tag the schema never parses
    @Tool('search_items', { description: 'Searches items.', input: Input, output: Output })
    class DemandingTool {
      handle(input: { query: string; tag: string }) {
        return { items: [input.tag] };
      }
    }
    void [NumberInputTool, WrongFieldTool, DemandingTool];
  });

  it('rejects a format() that expects more than the output schema gives', () => {
    // @ts-expect-error format reads a total the output does not declare
    @Tool('search_items', { description: 'Searches items.', input: Input, output: Output })
    class DemandingFormatTool {
      handle() {
        return { items: [] };
      }
      format(result: { items: string[]; total: number }) {
        return `${result.total} items`;
      }
    }
    void DemandingFormatTool;
  });

  it('rejects a handler whose return the output schema does not accept', () => {
    // @ts-expect-error items must be strings
    @Tool('search_items', { description: 'Searches items.', input: Input, output: Output })
    class WrongOutputTool {
      handle() {
        return { items: [1, 2, 3] };
      }
    }
    void WrongOutputTool;
  });

  it('lets a content-only tool return text or blocks, but not an object', () => {
    @Tool('say_hello', { description: 'Says hello.', input: Input })
    class TextTool {
      handle() {
        return 'hello';
      }
    }
    // @ts-expect-error a content-only tool returns a string or content blocks
    @Tool('say_hello', { description: 'Says hello.', input: Input })
    class ObjectTool {
      handle() {
        return { greeting: 'hello' };
      }
    }
    void [TextTool, ObjectTool];
  });
});

describe('@Tool with raw JSON Schema', () => {
  it('types the handler input from an inline schema: required keys required, enums as unions, refs unknown', () => {
    @Tool('find_contact', {
      description: 'Finds a contact.',
      inputSchema: {
        type: 'object',
        $defs: { address: { type: 'object' } },
        properties: {
          name: { type: 'string', description: 'Name.' },
          method: { enum: ['phone', 'email'], description: 'Method.' },
          tags: { type: 'array', items: { type: 'string' }, description: 'Tags.' },
          limit: { type: ['integer', 'null'], description: 'Limit.' },
          address: { $ref: '#/$defs/address', description: 'Address.' },
        },
        required: ['name'],
        additionalProperties: false,
      },
    })
    class FindContactTool {
      handle(input: {
        name: string;
        method?: 'phone' | 'email';
        tags?: string[];
        limit?: number | null;
        address?: unknown;
      }) {
        expectTypeOf(input.name).toEqualTypeOf<string>();
        return input.name;
      }
    }
    void FindContactTool;
  });

  it('rejects a handler that demands more than the schema guarantees', () => {
    // @ts-expect-error method is optional in the schema (not in `required`)
    @Tool('find_contact', {
      description: 'Finds a contact.',
      inputSchema: {
        type: 'object',
        properties: { method: { enum: ['phone', 'email'], description: 'Method.' } },
      },
    })
    class DemandingTool {
      handle(input: { method: 'phone' | 'email' }) {
        return input.method;
      }
    }
    // @ts-expect-error name is a string in the schema, not a number
    @Tool('find_contact', {
      description: 'Finds a contact.',
      inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'Name.' } } },
    })
    class WrongTypeTool {
      handle(input: { name?: number }) {
        return String(input.name);
      }
    }
    void [DemandingTool, WrongTypeTool];
  });

  it('reads a schema declared elsewhere as any object unless it is `as const`', () => {
    const widened: { type: 'object'; properties: Record<string, unknown> } = { type: 'object', properties: {} };
    @Tool('any_input', { description: 'Takes anything.', inputSchema: widened })
    class WidenedTool {
      handle(input: Record<string, unknown>) {
        return Object.keys(input).join(', ');
      }
    }
    void WidenedTool;
  });

  it('checks the handler return against a raw output schema', () => {
    @Tool('list_names', {
      description: 'Lists names.',
      input: Input,
      outputSchema: {
        type: 'object',
        properties: { names: { type: 'array', items: { type: 'string' }, description: 'Names.' } },
        required: ['names'],
      },
    })
    class ListNamesTool {
      handle() {
        return { names: ['ada'] };
      }
      format(result: { names: string[] }) {
        return result.names.join(', ');
      }
    }
    // @ts-expect-error names must be strings
    @Tool('list_names', {
      description: 'Lists names.',
      input: Input,
      outputSchema: {
        type: 'object',
        properties: { names: { type: 'array', items: { type: 'string' }, description: 'Names.' } },
        required: ['names'],
      },
    })
    class WrongNamesTool {
      handle() {
        return { names: [1] };
      }
    }
    void [ListNamesTool, WrongNamesTool];
  });

  it('requires one of input and inputSchema', () => {
    // @ts-expect-error neither input nor inputSchema
    @Tool('no_input', { description: 'Declares nothing.' })
    class NoInputTool {
      handle() {
        return 'x';
      }
    }
    void NoInputTool;
  });
});
