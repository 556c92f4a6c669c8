// README example: a complete tool — schemas, an error contract, enrichment, an alias and a markdown twin.
import { Enrichment, Errors, type HandlerContext, InputAlias, Tool } from 'mcp-kiln';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { z } from 'zod';
import { LibraryService } from './library.service.js';

const NotFound = [
  {
    reason: 'no_match',
    code: JsonRpcErrorCode.NotFound,
    when: 'No book has that ISBN.',
    recovery: 'Search the catalogue first and call again with an ISBN from the results.',
  },
] as const;

const Extras = { notice: z.string().optional().describe('Guidance when something was left out') };

const Input = z.object({ isbn: z.string().describe('ISBN-13 of the book') });
const Output = z.object({
  title: z.string().describe('Title'),
  author: z.string().describe('Author or authors'),
});

@Tool('library_get_book', {
  description: 'Fetch one book by ISBN-13 and return its title and author.',
  annotations: { readOnlyHint: true },
  input: Input,
  output: Output,
})
@Errors(NotFound)
@Enrichment(Extras)
@InputAlias({ isbn13: 'isbn' })
export class GetBookTool {
  constructor(private readonly library: LibraryService) {}

  async handle(input: z.output<typeof Input>, ctx: HandlerContext<typeof NotFound, typeof Extras>) {
    const book = await this.library.find(ctx, input.isbn);
    if (!book) throw ctx.fail('no_match'); // ctx.fail('typo') does not compile
    if (book.author.endsWith('et al.')) ctx.enrich.notice('Only the first author is listed.');
    return { title: book.title, author: book.author };
  }

  format(result: z.output<typeof Output>) {
    return `**${result.title}** by ${result.author}`;
  }
}
