// README example: the call policies of library_cover_art, through the testing kit.
import { createTestingModule } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import { LibraryModule } from './library.module.js';

describe('library_cover_art', () => {
  it('answers repeated lookups from the cache and says how many are left today', async () => {
    const app = await createTestingModule({ imports: [LibraryModule] }).compile();
    const client = await app.connectClient({
      era: 'envelope',
      auth: { clientId: 'web', subject: 'ada', tenantId: 'acme' },
    });

    const first = await client.callTool({ name: 'library_cover_art', arguments: { isbn: '9780262033848' } });
    const again = await client.callTool({
      name: 'library_cover_art',
      arguments: { isbn: '9780262033848', size: 'small' },
    });

    expect(first.content).toEqual([
      { type: 'text', text: 'https://covers.example/9780262033848-small.jpg\n(999 cover lookups left today)' },
    ]);
    expect(again._meta?.['mcp-kiln/cache']).toBe('hit');
    await app.close();
  });
});
