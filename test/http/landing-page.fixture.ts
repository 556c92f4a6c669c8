// A small catalogue server for the landing-page tests: a tool with nested and constrained inputs, a union-input
// tool, a disabled tool whose texts carry markup, a fixed resource, a resource template and a prompt.
import { Disabled, Module, Prompt, Resource, Tool } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { z } from 'zod';
import { type LandingPageModel, landingPageModel } from '../../modules/http/landing-page/model.js';

export const ENDPOINT_URL = 'http://127.0.0.1:3010/mcp';

const SearchInput = z.object({
  query: z.string().min(1).describe('Words to find in item names'),
  mode: z.enum(['fast', 'thorough']).default('fast').describe('How hard to look'),
  min_rating: z.number().int().min(1).max(5).default(3).describe('Lowest star rating to include'),
  filter: z
    .object({
      shelf: z.string().describe('Shelf code such as A3'),
      added_after: z.iso.datetime().optional().describe('Only items added after this instant'),
    })
    .optional()
    .describe('Narrows the search to one shelf'),
  sort: z
    .array(z.object({ field: z.enum(['name', 'rating']).describe('Field to sort by') }).describe('One sort key'))
    .optional()
    .describe('Sort keys, most significant first'),
});

@Tool('catalog_search', {
  title: 'Search the catalogue',
  description: 'Find catalogue items by name, optionally on one shelf; returns the best matches first.',
  input: SearchInput,
})
class SearchTool {
  handle() {
    return 'no items';
  }
}

const UpdateInput = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('rename').describe('Rename the item'),
      new_name: z.string().describe('The name to give the item'),
    })
    .describe('Give an item a new name'),
  z.object({
    action: z.literal('archive').describe('Archive the item'),
    reason: z.string().optional().describe('Why the item is archived'),
  }),
]);

@Tool('catalog_update', { description: 'Rename or archive one catalogue item.', input: UpdateInput })
class UpdateTool {
  handle() {
    return 'updated';
  }
}

@Tool('catalog_export', {
  title: 'Export <everything>',
  description: 'Exports the catalogue. <script>alert("pwned")</script>',
  input: z.object({ format: z.enum(['csv', 'json']).describe('File format') }),
})
@Disabled({
  reason: 'Exports moved to the catalog://stats resource & its <friends>.',
  hint: 'Read catalog://stats instead',
  since: '0.3.0',
})
class ExportTool {
  handle() {
    return 'exported';
  }
}

@Resource('catalog://stats', {
  name: 'catalog_stats',
  title: 'Catalogue statistics',
  description: 'Item counts per shelf.',
  mimeType: 'application/json',
})
class StatsResource {
  handle() {
    return '{}';
  }
}

@Resource('catalog://items/{id}', {
  name: 'catalog_item',
  title: 'Catalogue item',
  description: 'One item as markdown.',
  mimeType: 'text/markdown',
  params: z.object({ id: z.string().describe('Item id') }),
})
class ItemResource {
  handle() {
    return '# item';
  }
}

@Prompt('catalog_review', {
  title: 'Review an item',
  description: 'Ask the model for a short review of one item.',
  args: z.object({
    item_id: z.string().describe('Id of the item to review'),
    tone: z.string().optional().describe('Tone of the review, such as friendly'),
  }),
})
class ReviewPrompt {
  handle() {
    return 'Review it.';
  }
}

@Module({
  tools: [SearchTool, UpdateTool, ExportTool],
  resources: [StatsResource, ItemResource],
  prompts: [ReviewPrompt],
})
class CatalogModule {}

/** The catalogue app, compiled by the testing kit and not served; `env` adds configuration (an HTTP port, say). */
export function compileCatalogApp(env: Readonly<Record<string, string>> = {}): Promise<TestingApp> {
  return createTestingModule({ imports: [CatalogModule] }).compile({
    name: 'kiln-catalog',
    title: 'Kiln Catalogue',
    version: '1.2.0',
    instructions: 'Search before you update.\nItems are <b>never</b> deleted, only archived.',
    env,
  });
}

/** The compiled catalogue app and its landing-page model; close the app when done. */
export async function catalogLandingModel(): Promise<{ app: TestingApp; model: LandingPageModel }> {
  const testing = await compileCatalogApp();
  return { app: testing, model: landingPageModel(testing.app.catalog(), ENDPOINT_URL) };
}
