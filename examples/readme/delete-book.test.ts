// README example: a consent-gated tool driven through both rounds by a real SDK client that answers the prompt.
import type { ProtocolEra } from 'mcp-kiln';
import { createTestingModule } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import { LibraryModule } from './library.module.js';

const ISBN = '9780262033848';

/** Calls library_delete_book from a client that answers the confirmation with `confirm`. */
async function deleteAnswering(era: ProtocolEra, confirm: boolean) {
  const app = await createTestingModule({ imports: [LibraryModule] }).compile();
  const client = await app.connectClient({ era, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm } }));
  const result = await client.callTool({ name: 'library_delete_book', arguments: { isbn: ISBN } });
  const kept = !(await app.callTool('library_get_book', { isbn: ISBN })).isError;
  await app.close();
  return { result, kept };
}

describe('library_delete_book', () => {
  it('deletes the book once the user says yes (2026-07-28 client)', async () => {
    const { result, kept } = await deleteAnswering('envelope', true);
    expect(result.content).toEqual([{ type: 'text', text: `Deleted ${ISBN}.` }]);
    expect(kept).toBe(false);
  });

  it('keeps the book when the user says no (2025 client)', async () => {
    const { result, kept } = await deleteAnswering('handshake', false);
    expect(result.structuredContent).toMatchObject({ error: { data: { reason: 'consent_declined' } } });
    expect(kept).toBe(true);
  });
});
