// README example: a service the tools inject. Singletons by default; built once at boot.
import { type Context, Injectable } from 'mcp-kiln';

export interface Book {
  isbn: string;
  title: string;
  author: string;
}

@Injectable()
export class LibraryService {
  private readonly books = new Map<string, Book>([
    ['9780262033848', { isbn: '9780262033848', title: 'Introduction to Algorithms', author: 'Cormen et al.' }],
  ]);

  async find(ctx: Context, isbn: string): Promise<Book | undefined> {
    ctx.log.debug('Looking up book', { isbn });
    return this.books.get(isbn);
  }

  async delete(ctx: Context, isbn: string): Promise<boolean> {
    ctx.log.info('Deleting book', { isbn });
    return this.books.delete(isbn);
  }
}
