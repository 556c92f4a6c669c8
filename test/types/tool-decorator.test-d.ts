// Compile-time guarantees of @Tool: the class's handle() must accept the parsed input and return what the output
// schema accepts, so a mismatched handler fails to compile at the decorator.
import { type Context, Tool } from 'mcp-kiln';
import { describe, it } from 'vitest';
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
