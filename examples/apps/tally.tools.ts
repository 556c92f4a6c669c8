// Two tools sharing one MCP Apps view: the model calls tally_show_board and a host renders the board with its result;
// the board's buttons call tally_increment back through the host, a tool only the view may call.
import { type Context, Inject, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { type Tally, TallyService } from './tally.service.js';

export const TALLY_BOARD_URI = 'ui://tally/board';

const TallySchema = z.object({
  name: z.string().describe('What is counted'),
  count: z.number().int().describe('How many so far'),
});

@Tool('tally_show_board', {
  title: 'Show the tally board',
  description:
    'Show every named tally and its count. Hosts that render MCP Apps show an interactive board where the user can ' +
    'add to any tally; other clients get the same counts as text.',
  input: z.object({}),
  output: z.object({ tallies: z.array(TallySchema).describe('Every tally, in the order it was started') }),
  annotations: { readOnlyHint: true },
  ui: TALLY_BOARD_URI,
})
export class ShowBoardTool {
  constructor(@Inject(TallyService) private readonly tallies: TallyService) {}

  readonly handle = async (_input: unknown, ctx: Context) => ({ tallies: await this.tallies.list(ctx.state) });

  readonly format = (result: { tallies: Tally[] }) =>
    result.tallies.map((tally) => `- ${tally.name}: ${tally.count}`).join('\n') || 'No tallies yet.';
}

const IncrementInput = z.object({
  name: z.string().min(1).max(40).describe('The tally to add to; a new name starts a tally at 0'),
  by: z.number().int().min(1).max(100).default(1).describe('How much to add'),
});

@Tool('tally_increment', {
  title: 'Add to a tally',
  description: 'Add to one named tally (starting it if new) and return its new count. Called by the tally board.',
  input: IncrementInput,
  output: TallySchema,
  annotations: { idempotentHint: false },
  ui: { resourceUri: TALLY_BOARD_URI, visibility: ['app'] },
})
export class IncrementTool {
  constructor(@Inject(TallyService) private readonly tallies: TallyService) {}

  readonly handle = (input: z.output<typeof IncrementInput>, ctx: Context) =>
    this.tallies.add(ctx.state, input.name, input.by);

  readonly format = (result: Tally) => `${result.name}: ${result.count}`;
}
