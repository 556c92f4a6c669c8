// Boot lint warnings: the tool boots and serves, and boot logs one warning per finding naming the tool, what to
// change and the rule id. `kiln lint` prints the same lines (test/cli).
import { Enrichment, Tool } from 'mcp-kiln';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, bootWarnings, capturedLog, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

const Query = z.object({ query: z.string().describe('Words to search for') });

describe('capped-list-no-truncation', () => {
  const Limit = z.object({ limit: z.number().int().describe('Most items to return') });
  const Items = z.object({ items: z.array(z.string().describe('An item')).describe('The items') });

  it('warns when a cap-like input and a returned list come without truncated or totalCount', async () => {
    @Tool('store_list_items', { description: 'List items up to limit.', input: Limit, output: Items })
    class CappedTool {
      handle() {
        return { items: [] };
      }
    }
    expect(await bootWarnings({ tools: [CappedTool] })).toEqual([
      "Tool store_list_items (CappedTool): takes a cap-like input and returns a list but declares neither 'truncated' " +
        "nor 'totalCount'; disclose truncation with ctx.enrich.truncated() or ctx.enrich.total(). [capped-list-no-truncation]",
    ]);
  });

  it.each([
    ['truncated', { truncated: z.boolean().optional().describe('True when capped') }],
    ['totalCount', { totalCount: z.number().describe('Matches before the limit') }],
  ])('is satisfied by an enrichment %s', async (_key, shape) => {
    @Tool('store_list_items', { description: 'List items up to limit.', input: Limit, output: Items })
    @Enrichment(shape)
    class DisclosingTool {
      handle() {
        return { items: [] };
      }
    }
    expect(await bootWarnings({ tools: [DisclosingTool] })).toEqual([]);
  });

  it('does not fire without a list in the output or without a cap-like input', async () => {
    @Tool('store_count_items', {
      description: 'Count items up to limit.',
      input: Limit,
      output: z.object({ count: z.number().describe('How many') }),
    })
    class CountTool {
      handle() {
        return { count: 0 };
      }
    }
    @Tool('store_list_items', { description: 'List every item.', input: Query, output: Items })
    class UncappedTool {
      handle() {
        return { items: [] };
      }
    }
    expect(await bootWarnings({ tools: [CountTool, UncappedTool] })).toEqual([]);
  });
});

describe('schema-root-meta-carried', () => {
  it('warns when the input root was described before .strict(), and advertises the description anyway', async () => {
    const Described = z.object({ query: z.string().describe('Words') }).describe('What to search for');
    @Tool('store_search_items', { description: 'Search items.', input: Described })
    class DescribedRootTool {
      handle() {
        return 'found';
      }
    }
    const log = capturedLog();
    const app = await bootApp(fixtureModule({ tools: [DescribedRootTool] }), log.options);
    expect(log.lines.filter((line) => line.level === 'warning').map((line) => line.msg)).toEqual([
      'Tool store_search_items (DescribedRootTool): .describe()/.meta() on the input root was declared before ' +
        '.strict(); Kiln carried it over, but declare .strict() first so the schema says what it advertises. ' +
        '[schema-root-meta-carried]',
    ]);
    expect(app.runtime.tools.get('store_search_items')?.definition.inputSchema).toMatchObject({
      description: 'What to search for',
      additionalProperties: false,
    });
  });

  it('names each union variant that carried it, and is quiet when .strict() came first', async () => {
    const Union = z.discriminatedUnion('mode', [
      z.object({ mode: z.literal('id').describe('By id'), id: z.string().describe('Id') }).describe('By id'),
      z.object({ mode: z.literal('name').describe('By name'), name: z.string().describe('Name') }),
    ]);
    @Tool('store_get_item', { description: 'Get an item.', input: Union })
    class UnionTool {
      handle() {
        return 'item';
      }
    }
    @Tool('store_find_items', {
      description: 'Find items.',
      input: z
        .object({ query: z.string().describe('Words') })
        .strict()
        .describe('What to find'),
    })
    class StrictFirstTool {
      handle() {
        return 'found';
      }
    }
    const warnings = await bootWarnings({ tools: [UnionTool, StrictFirstTool] });
    expect(warnings.filter((w) => w.endsWith('[schema-root-meta-carried]'))).toEqual([
      expect.stringMatching(/^Tool store_get_item \(UnionTool\): \.describe\(\)\/\.meta\(\) on the input variant 0 /),
    ]);
  });
});

describe('schema-root-oneof-portability', () => {
  it('warns about a discriminated-union root and a raw schema with a root anyOf, not about a flat object', async () => {
    const Union = z.discriminatedUnion('mode', [
      z.object({ mode: z.literal('id').describe('By id'), id: z.string().describe('Id') }),
      z.object({ mode: z.literal('name').describe('By name'), name: z.string().describe('Name') }),
    ]);
    @Tool('store_get_item', { description: 'Get an item by id or name.', input: Union })
    class UnionTool {
      handle() {
        return 'item';
      }
    }
    @Tool('store_find_item', {
      description: 'Find an item by id or name.',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', description: 'Id' }, name: { type: 'string', description: 'Name' } },
        anyOf: [{ required: ['id'] }, { required: ['name'] }],
        additionalProperties: false,
      },
    })
    class RawAnyOfTool {
      handle() {
        return 'item';
      }
    }
    @Tool('store_search_items', { description: 'Search items.', input: Query })
    class FlatTool {
      handle() {
        return 'found';
      }
    }
    const warnings = await bootWarnings({ tools: [UnionTool, RawAnyOfTool, FlatTool] });
    expect(warnings).toEqual([
      expect.stringMatching(
        /^Tool store_get_item \(UnionTool\): the input schema has oneOf at its root, which the Anthropic Messages API refuses .* \[schema-root-oneof-portability\]$/,
      ),
      expect.stringMatching(/^Tool store_find_item \(RawAnyOfTool\): the input schema has anyOf at its root/),
    ]);
  });
});

describe('tool-name-shape', () => {
  it.each([
    ['search', "name 'search' is one word, naming neither the domain nor the object"],
    [
      'notes_search',
      "name 'notes_search' ends in the verb 'search' (search what?); name the object after the verb (notes_search_<noun>)",
    ],
    ['notes_items_list', "name 'notes_items_list' ends in the verb 'list'"],
  ])('warns about %s', async (name, message) => {
    @Tool(name, { description: 'Search notes.', input: Query })
    class NamedTool {
      handle() {
        return 'found';
      }
    }
    const [warning, ...rest] = await bootWarnings({ tools: [NamedTool] });
    expect(rest).toEqual([]);
    expect(warning).toContain(`Tool ${name} (NamedTool): ${message}`);
    expect(warning).toMatch(/ \[tool-name-shape\]$/);
  });

  it.each(['notes_search_notes', 'git_pull', 'git_status', 'openfda_search_device_clearances', 'say_hello'])(
    'accepts %s',
    async (name) => {
      @Tool(name, { description: 'Does one thing.', input: Query })
      class NamedTool {
        handle() {
          return 'done';
        }
      }
      expect(await bootWarnings({ tools: [NamedTool] })).toEqual([]);
    },
  );
});

describe('description-shape', () => {
  it.each([
    ['a blank line', 'Search notes.\n\nUse it before editing.'],
    ['a list', 'Search notes:\n- by title\n- by tag'],
    ['a list', 'Search notes:\n1. pick a tag\n2. call it'],
    ['a markdown heading', '## Search\nFinds notes.'],
  ])('warns about a description with %s', async (shape, description) => {
    @Tool('notes_search_notes', { description, input: Query })
    class ShapedTool {
      handle() {
        return 'found';
      }
    }
    const [warning] = await bootWarnings({ tools: [ShapedTool] });
    expect(warning).toBe(
      `Tool notes_search_notes (ShapedTool): description has ${shape}; it renders inline, so write one cohesive ` +
        'paragraph of prose sentences telling when and how to use the tool. [description-shape]',
    );
  });

  it('accepts one paragraph, wrapped lines and a hyphen inside a sentence included', async () => {
    @Tool('notes_search_notes', {
      description: 'Search notes by words in the title or body - newest first;\nreturns up to limit notes.',
      input: Query,
    })
    class ParagraphTool {
      handle() {
        return 'found';
      }
    }
    expect(await bootWarnings({ tools: [ParagraphTool] })).toEqual([]);
  });
});
