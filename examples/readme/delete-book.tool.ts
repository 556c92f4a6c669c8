// README example: a destructive tool behind a consent gate. The handler holds no consent code: the framework asks
// the user, and runs it only on the retry that redeems the record it stored when it asked.
import { type Context, RequiresConsent, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { LibraryService } from './library.service.js';

const Input = z.object({ isbn: z.string().describe('ISBN-13 of the book to delete') });
type Input = z.output<typeof Input>;

@Tool('library_delete_book', {
  description: 'Delete a book from the catalogue by ISBN-13. The user is asked to confirm first.',
  annotations: { destructiveHint: true },
  input: Input,
})
@RequiresConsent({
  message: (input: Input) => `Delete the book ${input.isbn} from the catalogue?`,
  target: (input) => input.isbn,
  contentHash: 'snapshot', // a method, so it can use the tool's services
})
export class DeleteBookTool {
  constructor(private readonly library: LibraryService) {}

  async handle(input: Input, ctx: Context) {
    return (await this.library.delete(ctx, input.isbn)) ? `Deleted ${input.isbn}.` : `No book has ISBN ${input.isbn}.`;
  }

  /** The book as the user was asked about it: an edit before the retry voids the yes. */
  async snapshot(input: Input, ctx: Context) {
    return JSON.stringify((await this.library.find(ctx, input.isbn)) ?? null);
  }
}
