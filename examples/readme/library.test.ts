// README example: testing a module with an overridden provider, through the real wiring.
import { createTestingModule } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import { LibraryModule } from './library.module.js';
import { LibraryService } from './library.service.js';

describe('library_get_book', () => {
  it('answers a missing book with the contract hint', async () => {
    const app = await createTestingModule({ imports: [LibraryModule] })
      .overrideProvider(LibraryService)
      .useValue({ find: async () => undefined })
      .compile();

    const result = await app.callTool('library_get_book', { isbn: '0000000000000' });

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: { data: { reason: 'no_match', recovery: { hint: expect.stringContaining('Search the catalogue') } } },
    });
    await app.close();
  });

  it('serves the real service to an SDK client on the 2026-07-28 era', async () => {
    const app = await createTestingModule({ imports: [LibraryModule] }).compile();
    const client = await app.connectClient({ era: 'envelope' });

    const result = await client.callTool({ name: 'library_get_book', arguments: { isbn13: '9780262033848' } });

    expect(result.structuredContent).toEqual({
      title: 'Introduction to Algorithms',
      author: 'Cormen et al.',
      notice: 'Only the first author is listed.',
    });
    expect(result.content).toEqual([
      { type: 'text', text: '**Introduction to Algorithms** by Cormen et al.' },
      { type: 'text', text: '> Only the first author is listed.' },
    ]);
    await app.close();
  });
});
