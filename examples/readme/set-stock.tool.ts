// README example: a tool only tokens granted library:write may call, with a check inside that depends on the call.
import { type Context, Module, Scopes, Tool } from 'mcp-kiln';
import { z } from 'zod';

const Input = z.object({
  isbn: z.string().describe('ISBN-13 of the book'),
  copies: z.number().int().min(0).describe('Copies on the shelf'),
});

@Tool('library_set_stock', {
  description: 'Set how many copies of a book this library branch holds.',
  input: Input,
  output: z.object({ copies: z.number().describe('Copies now on the shelf') }),
})
@Scopes('library:write') // or @Scopes({ anyOf: ['library:write', 'library:admin'] })
export class SetStockTool {
  async handle(input: z.output<typeof Input>, ctx: Context) {
    if (input.copies > 100) ctx.requireScopes('library:bulk'); // a check that depends on the call
    await ctx.state.set(`stock/${input.isbn}`, input.copies); // the token's tenant's state
    return { copies: input.copies };
  }
}

@Module({ tools: [SetStockTool] })
export class StockModule {}
