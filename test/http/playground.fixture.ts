// A server for the playground tests: a lookup with a structured result, markdown twin, enrichment, a declared
// failure and a header parameter; a tool that streams progress and log records (held mid-way until the test lets it
// go); an elicitation; a consent gate; tools whose inputs are nested, arrayed and unions (echoed back); a fixed
// resource, a template and a prompt.
import {
  type Context,
  Enrichment,
  Errors,
  type HandlerContext,
  headerParam,
  inputRequired,
  Module,
  Prompt,
  RequiresConsent,
  Resource,
  Tool,
} from 'mcp-kiln';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { z } from 'zod';

const NoMatch = [
  {
    reason: 'no_match',
    code: JsonRpcErrorCode.NotFound,
    when: 'No book has that ISBN.',
    recovery: 'Search the shelf first and call again with an ISBN from the results.',
  },
] as const;
const Extras = { notice: z.string().optional().describe('Guidance when something was left out') };
const LookupInput = z.object({
  isbn: z.string().describe('ISBN-13 of the book'),
  region: headerParam(z.string(), 'Region').optional().describe('Library branch; mirrored into Mcp-Param-Region'),
});
const Book = z.object({ title: z.string().describe('Title'), author: z.string().describe('Author') });

@Tool('pg_lookup', {
  title: 'Look up a book',
  description: 'Fetch one book by ISBN-13.',
  annotations: { readOnlyHint: true },
  input: LookupInput,
  output: Book,
})
@Errors(NoMatch)
@Enrichment(Extras)
class LookupTool {
  handle(input: z.output<typeof LookupInput>, ctx: HandlerContext<typeof NoMatch, typeof Extras>) {
    if (input.isbn === 'missing') throw ctx.fail('no_match', `No book has ISBN ${input.isbn}.`);
    ctx.enrich.notice(`Only the first author is listed (branch ${input.region ?? 'main'}).`);
    return { title: 'Kiln Firing', author: 'A. Potter et al.' };
  }

  format(book: z.output<typeof Book>) {
    return `**${book.title}** by ${book.author}`;
  }
}

/** Holds the streaming tool after its first progress step until a test calls release(); counts cancelled calls. */
export const streamGate = {
  cancelled: 0,
  release: () => {},
  arm(): Promise<void> {
    return new Promise((resolve) => {
      this.release = resolve;
    });
  },
};

@Tool('pg_stream', {
  description: 'Reports progress in three steps with a log record at each; pauses after the first.',
  input: z.object({}),
})
class StreamTool {
  async handle(_input: Record<string, never>, ctx: HandlerContext) {
    const held = streamGate.arm();
    ctx.log.info('Started the job');
    await ctx.progress(1, 3, 'Read the shelf');
    const stopped = new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    await Promise.race([held, stopped]);
    if (ctx.signal.aborted) {
      streamGate.cancelled++;
      return 'Cancelled.';
    }
    ctx.log.warning('Two books were damp');
    await ctx.progress(2, 3, 'Checked the books');
    await ctx.progress(3, 3, 'Done');
    return 'Stream finished.';
  }
}

const Name = z.object({
  name: z.string().describe('Your name'),
  loud: z.boolean().describe('Shout the greeting'),
});

@Tool('pg_greet', {
  description: 'Asks who you are, then greets you.',
  input: z.object({}),
  output: z.object({ greeting: z.string().describe('The greeting') }),
})
class GreetTool {
  handle(_input: Record<string, never>, ctx: HandlerContext) {
    const answer = ctx.inputs.accepted('who', Name);
    if (!answer) {
      return ctx.requestInput(
        { inputRequests: { who: inputRequired.elicit({ message: 'Who is asking?', requestedSchema: Name }) } },
        { fallbackHint: 'Or call with a name.' },
      );
    }
    const greeting = `Hello, ${answer.name}!`;
    return { greeting: answer.loud ? greeting.toUpperCase() : greeting };
  }
}

const ShelfInput = z.object({ shelf: z.string().describe('Shelf code') });
type ShelfInput = z.output<typeof ShelfInput>;

@Tool('pg_clear_shelf', {
  description: 'Removes every book from a shelf, once the user confirms.',
  annotations: { destructiveHint: true },
  input: ShelfInput,
})
@RequiresConsent({ message: (input: ShelfInput) => `Clear shelf ${input.shelf}?`, target: (input) => input.shelf })
class ClearShelfTool {
  handle(input: ShelfInput, _ctx: Context) {
    return `Shelf ${input.shelf} cleared.`;
  }
}

const PlanInput = z.object({
  title: z.string().describe('Plan title'),
  copies: z.number().int().min(1).max(9).describe('Copies to order'),
  priority: z.enum(['low', 'high']).optional().describe('How urgent'),
  gift: z.boolean().optional().describe('Wrap as a gift'),
  shipping: z
    .object({
      city: z.string().describe('City'),
      express: z.boolean().describe('Express delivery'),
    })
    .describe('Where to ship'),
  note: z
    .object({ text: z.string().describe('Note text') })
    .optional()
    .describe('A note for the parcel'),
  items: z
    .array(z.object({ isbn: z.string().describe('ISBN'), count: z.number().int().describe('How many') }))
    .describe('Books to order'),
  payment: z
    .discriminatedUnion('method', [
      z.object({ method: z.literal('card').describe('Pay by card'), last4: z.string().describe('Last four digits') }),
      z.object({ method: z.literal('invoice').describe('Pay later'), days: z.number().int().describe('Days to pay') }),
    ])
    .describe('How to pay'),
});

@Tool('pg_plan_order', { description: 'Echoes an order plan back as given.', input: PlanInput })
class PlanTool {
  handle(input: z.output<typeof PlanInput>) {
    return JSON.stringify(input);
  }
}

const MoveInput = z.discriminatedUnion('action', [
  z.object({ action: z.literal('rename').describe('Rename it'), new_name: z.string().describe('New name') }),
  z.object({ action: z.literal('archive').describe('Archive it'), reason: z.string().optional().describe('Why') }),
]);

@Tool('pg_update', { description: 'Renames or archives an item; echoes what it was asked.', input: MoveInput })
class UpdateTool {
  handle(input: z.output<typeof MoveInput>) {
    return JSON.stringify(input);
  }
}

@Resource('pg://stats', { name: 'pg_stats', description: 'Counts.', mimeType: 'application/json' })
class StatsResource {
  handle() {
    return JSON.stringify({ books: 3 });
  }
}

@Resource('pg://items/{id}', {
  name: 'pg_item',
  description: 'One item as markdown.',
  mimeType: 'text/markdown',
  params: z.object({ id: z.string().describe('Item id') }),
})
class ItemResource {
  handle(params: { id: string }) {
    return `# Item ${params.id}`;
  }
}

@Prompt('pg_review', {
  description: 'Ask for a short review. <img src=x onerror=alert(1)>',
  args: z.object({
    item_id: z.string().describe('Item to review'),
    tone: z.string().optional().describe('Tone, such as friendly'),
  }),
})
class ReviewPrompt {
  handle(args: { item_id: string; tone?: string }) {
    return `Review item ${args.item_id} in a ${args.tone ?? 'neutral'} tone.`;
  }
}

@Module({
  tools: [LookupTool, StreamTool, GreetTool, ClearShelfTool, PlanTool, UpdateTool],
  resources: [StatsResource, ItemResource],
  prompts: [ReviewPrompt],
})
export class PlaygroundFixtureModule {}

/** The playground app, compiled and not served; `env` adds configuration. Logging at info, so records reach the wire. */
export function compilePlaygroundApp(env: Readonly<Record<string, string>> = {}): Promise<TestingApp> {
  return createTestingModule({ imports: [PlaygroundFixtureModule] }).compile({
    name: 'kiln-playground-fixture',
    title: 'Kiln Playground',
    version: '1.0.0',
    env: { MCP_LOG_LEVEL: 'info', ...env },
  });
}
