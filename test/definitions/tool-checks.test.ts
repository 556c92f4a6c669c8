// Boot-time checks of tool definitions: each mistake stops boot with its own message naming the tool, its class
// and what to change; every finding of one boot is reported together.
import { Enrichment, Errors, InputAlias, Tool, type ToolInputSchema } from 'mcp-kiln';
import { JsonRpcErrorCode, KilnBootError } from 'mcp-kiln/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, bootProblem, bootProblems, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

const Query = z.object({ query: z.string().describe('Words to search for') });
const Items = z.object({ items: z.array(z.string().describe('An item')).describe('Matching items') });

const bootTools = (...tools: (new (...args: never[]) => unknown)[]) => bootProblem(fixtureModule({ tools }));

describe('tool names', () => {
  it('rejects two tools sharing a name, naming both classes', async () => {
    @Tool('find_items', { description: 'Finds items.', input: Query })
    class FindItemsTool {
      handle() {
        return 'found';
      }
    }
    @Tool('find_items', { description: 'Finds items again.', input: Query })
    class FindItemsAgainTool {
      handle() {
        return 'found again';
      }
    }
    expect(await bootTools(FindItemsTool, FindItemsAgainTool)).toBe(
      "Two tools share the tool 'find_items': FindItemsTool and FindItemsAgainTool. Names must be unique.",
    );
  });

  it.each([
    ['camelCase', 'findItems'],
    ['kebab-case', 'find-items'],
    ['a leading digit', '1_find'],
    ['65 characters', `find_${'x'.repeat(60)}`],
  ])('rejects a name in %s', async (_label, name) => {
    @Tool(name, { description: 'Finds items.', input: Query })
    class BadNameTool {
      handle() {
        return 'found';
      }
    }
    expect(await bootTools(BadNameTool)).toBe(
      `Tool ${name} (BadNameTool): name must be snake_case, 1–64 characters (for example notes_get_note). [tool-name]`,
    );
  });

  it('accepts a snake_case name of exactly 64 characters', async () => {
    const name = `find_${'x'.repeat(59)}`;
    @Tool(name, { description: 'Finds items.', input: Query })
    class LongNameTool {
      handle() {
        return 'found';
      }
    }
    const app = await bootApp(fixtureModule({ tools: [LongNameTool] }));
    expect(app.runtime.tools.has(name)).toBe(true);
  });
});

describe('field descriptions', () => {
  it('rejects an input field without .describe()', async () => {
    @Tool('find_items', { description: 'Finds items.', input: z.object({ query: z.string(), limit: z.number() }) })
    class UndescribedInputTool {
      handle() {
        return 'found';
      }
    }
    expect(await bootTools(UndescribedInputTool)).toBe(
      'Tool find_items (UndescribedInputTool): input fields without .describe(): query, limit. Every field needs a description. [field-description]',
    );
  });

  it('rejects an output field without .describe(), with its nested path', async () => {
    const Output = z.object({ items: z.array(z.object({ id: z.string() }).describe('An item')).describe('Items') });
    @Tool('find_items', { description: 'Finds items.', input: Query, output: Output })
    class UndescribedOutputTool {
      handle() {
        return { items: [] };
      }
    }
    expect(await bootTools(UndescribedOutputTool)).toContain(
      'Tool find_items (UndescribedOutputTool): output fields without .describe(): items[].id.',
    );
  });

  it('rejects an enrichment field without .describe()', async () => {
    @Tool('find_items', { description: 'Finds items.', input: Query, output: Items })
    @Enrichment({ totalCount: z.number() })
    class UndescribedEnrichmentTool {
      handle() {
        return { items: [] };
      }
    }
    expect(await bootTools(UndescribedEnrichmentTool)).toContain(
      'Tool find_items (UndescribedEnrichmentTool): enrichment fields without .describe(): totalCount.',
    );
  });
});

describe('error contracts', () => {
  it('rejects a recovery hint under five words, naming the reason', async () => {
    const Contract = [
      { reason: 'busy', code: JsonRpcErrorCode.RateLimited, when: 'The queue is full.', recovery: 'Try again later.' },
    ] as const;
    @Tool('find_items', { description: 'Finds items.', input: Query })
    @Errors(Contract)
    class TerseRecoveryTool {
      handle() {
        return 'found';
      }
    }
    expect(await bootTools(TerseRecoveryTool)).toBe(
      "Tool find_items (TerseRecoveryTool): recovery for 'busy' has 3 word(s); write at least 5 telling the agent its next move. [recovery-too-short]",
    );
  });

  it('accepts a recovery hint of five words', async () => {
    const Contract = [
      { reason: 'busy', code: JsonRpcErrorCode.RateLimited, when: 'Full.', recovery: 'Wait a minute, then retry.' },
    ] as const;
    @Tool('find_items', { description: 'Finds items.', input: Query })
    @Errors(Contract)
    class FiveWordRecoveryTool {
      handle() {
        return 'found';
      }
    }
    await expect(bootApp(fixtureModule({ tools: [FiveWordRecoveryTool] }))).resolves.toBeDefined();
  });
});

describe('output and enrichment keys', () => {
  it('rejects enrichment keys that overlap output keys', async () => {
    const Output = z.object({ totalCount: z.number().describe('Matches') });
    @Tool('count_items', { description: 'Counts items.', input: Query, output: Output })
    @Enrichment({ totalCount: z.number().describe('Matches before the limit') })
    class OverlappingTool {
      handle() {
        return { totalCount: 1 };
      }
    }
    expect(await bootTools(OverlappingTool)).toBe(
      'Tool count_items (OverlappingTool): enrichment keys must be disjoint from output keys; both declare totalCount. [enrichment-output-overlap]',
    );
  });

  it("rejects 'error' as an output key", async () => {
    const Output = z.object({ error: z.string().describe('What failed') });
    @Tool('check_item', { description: 'Checks an item.', input: Query, output: Output })
    class ErrorKeyTool {
      handle() {
        return { error: 'none' };
      }
    }
    expect(await bootTools(ErrorKeyTool)).toBe(
      "Tool check_item (ErrorKeyTool): 'error' is reserved for the failure envelope; rename the field (errorText, failureDetail). [reserved-error-key]",
    );
  });

  it('rejects a structured enrichment field with no trailer render, and accepts it with one', async () => {
    const Filters = { appliedFilters: z.object({ tag: z.string().describe('Tag') }).describe('Filters applied') };
    @Tool('find_items', { description: 'Finds items.', input: Query, output: Items })
    @Enrichment(Filters)
    class JsonTrailerTool {
      handle() {
        return { items: [] };
      }
    }
    expect(await bootTools(JsonTrailerTool)).toBe(
      "Tool find_items (JsonTrailerTool): enrichment field 'appliedFilters' is an object or array; give it a trailer render so content[] shows markdown, not JSON. [enrichment-trailer-render]",
    );

    @Tool('find_items', { description: 'Finds items.', input: Query, output: Items })
    @Enrichment(Filters, { appliedFilters: { render: (f) => `- Tag: ${f.tag}` } })
    class RenderedTrailerTool {
      handle() {
        return { items: [] };
      }
    }
    await expect(bootApp(fixtureModule({ tools: [RenderedTrailerTool] }))).resolves.toBeDefined();
  });

  it('sees through .optional() to an array enrichment field', async () => {
    @Tool('find_items', { description: 'Finds items.', input: Query, output: Items })
    @Enrichment({ skipped: z.array(z.string().describe('An id')).optional().describe('Ids skipped') })
    class OptionalArrayTool {
      handle() {
        return { items: [] };
      }
    }
    expect(await bootTools(OptionalArrayTool)).toContain("enrichment field 'skipped' is an object or array");
  });
});

describe('input roots and aliases', () => {
  it('rejects a bare z.union input root', async () => {
    const Either = z.union([
      z.object({ id: z.string().describe('Item id') }),
      z.object({ name: z.string().describe('Item name') }),
    ]);
    @Tool('get_item', { description: 'Gets an item.', input: Either as unknown as ToolInputSchema })
    class UnionRootTool {
      handle() {
        return 'item';
      }
    }
    const problem = await bootTools(UnionRootTool);
    expect(problem).toContain(
      'Tool get_item (UnionRootTool): Input root must be z.object(...) or z.discriminatedUnion(...)',
    );
    expect(problem).toContain('a bare z.union has no discriminator');
  });

  it('rejects an alias that shadows a declared key', async () => {
    const Input = z.object({ query: z.string().describe('Search words'), q: z.string().describe('Quick filter') });
    @Tool('find_items', { description: 'Finds items.', input: Input })
    @InputAlias({ q: 'query' })
    class ShadowingAliasTool {
      handle() {
        return 'found';
      }
    }
    expect(await bootTools(ShadowingAliasTool)).toBe(
      'Tool find_items (ShadowingAliasTool): Input aliases of tool find_items conflict:\n' +
        '  - Alias "q" shadows the declared key "q".',
    );
  });

  it('rejects an alias naming a key the input does not declare', async () => {
    @Tool('find_items', { description: 'Finds items.', input: Query })
    @InputAlias({ search: 'querry' })
    class DanglingAliasTool {
      handle() {
        return 'found';
      }
    }
    expect(await bootTools(DanglingAliasTool)).toBe(
      'Tool find_items (DanglingAliasTool): Input aliases of tool find_items conflict:\n' +
        '  - Alias "search" names "querry", which the input does not declare.',
    );
  });
});

describe('reporting', () => {
  it('reports every problem of one boot together in a single KilnBootError', async () => {
    @Tool('findItems', { description: 'Finds items.', input: z.object({ query: z.string() }) })
    class TwoProblemsTool {
      handle() {
        return 'found';
      }
    }
    @Tool('get_item', { description: '', input: Query })
    class EmptyDescriptionTool {
      handle() {
        return 'item';
      }
    }
    const error = await bootApp(fixtureModule({ tools: [TwoProblemsTool, EmptyDescriptionTool] })).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(KilnBootError);
    expect((error as KilnBootError).problems).toEqual([
      'Tool findItems (TwoProblemsTool): name must be snake_case, 1–64 characters (for example notes_get_note). [tool-name]',
      'Tool findItems (TwoProblemsTool): input fields without .describe(): query. Every field needs a description. [field-description]',
      'Tool get_item (EmptyDescriptionTool): description is empty; say when and how to use it. [description-empty]',
    ]);
    expect((error as KilnBootError).message).toMatch(/^Kiln could not start:\n {2}- Tool findItems/);
  });

  it('rejects a class listed as a tool without @Tool', async () => {
    class PlainClass {}
    const problems = await bootProblems(fixtureModule({ tools: [PlainClass] }));
    expect(problems).toContain("PlainClass is listed in a module's tools but has no @Tool() decorator.");
  });
});
