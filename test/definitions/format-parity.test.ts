// format() parity: boot renders a synthetic result through the class's format() and warns about every output field
// the text leaves out, since a client reading content[] alone would never see it.
import { Enrichment, Tool } from 'mcp-kiln';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootWarnings, closeBootedApps } from '../di/boot-app.js';

afterEach(closeBootedApps);

const Query = z.object({ query: z.string().describe('Words to search for') });
const Note = z.object({
  id: z.string().describe('Note id'),
  title: z.string().describe('Title'),
  createdAt: z.iso.datetime().describe('When it was created'),
  wordCount: z.number().int().describe('Words in the body'),
  pinned: z.boolean().describe('Pinned to the top'),
  status: z.enum(['draft', 'published']).describe('Publication state'),
  tags: z.array(z.string().describe('A tag')).describe('Tags'),
  author: z
    .object({ name: z.string().describe('Name'), email: z.email().optional().describe('Email') })
    .describe('Who'),
});
const Output = z.object({ notes: z.array(Note).describe('Matching notes') });
type Result = z.output<typeof Output>;

const parity = (warnings: readonly string[]) => warnings.filter((w) => w.endsWith('[format-parity]'));

describe('format-parity', () => {
  it('is quiet when format() renders every field, however it lays them out', async () => {
    @Tool('notes_search_notes', { description: 'Search notes.', input: Query, output: Output })
    class FullTool {
      handle() {
        return { notes: [] };
      }
      format(result: Result) {
        return result.notes
          .map(
            (n) =>
              `## ${n.title.toUpperCase()} (${n.id}, ${n.status})\n${new Date(n.createdAt).toISOString().slice(0, 10)} · ` +
              `${n.wordCount} words · ${n.tags.join(', ')} · ${n.author.name} <${n.author.email ?? 'none'}>`,
          )
          .join('\n');
      }
    }
    expect(parity(await bootWarnings({ tools: [FullTool] }))).toEqual([]);
  });

  it('names every field the text leaves out, nested paths included; booleans are not probed', async () => {
    @Tool('notes_search_notes', { description: 'Search notes.', input: Query, output: Output })
    class ThinTool {
      handle() {
        return { notes: [] };
      }
      format(result: Result) {
        return `Found ${result.notes.length} notes: ${result.notes.map((n) => n.title).join(', ')}`;
      }
    }
    expect(parity(await bootWarnings({ tools: [ThinTool] }))).toEqual([
      'Tool notes_search_notes (ThinTool): format() leaves out output field(s) notes[].id, notes[].createdAt, ' +
        'notes[].wordCount, notes[].status, notes[].tags[], notes[].author.name, notes[].author.email: clients that ' +
        'read content[] never see them. Render every output field in format(), or remove format() to let Kiln ' +
        'render the result as JSON. [format-parity]',
    ]);
  });

  it('reads the text blocks of a content-block format(), and leaves enrichment fields out of the check', async () => {
    const Single = z.object({ id: z.string().describe('Id'), size: z.number().describe('Bytes') });
    @Tool('files_get_file', { description: 'Get a file.', input: Query, output: Single })
    @Enrichment({ notice: z.string().optional().describe('Guidance') })
    class BlocksTool {
      handle() {
        return { id: 'a', size: 1 };
      }
      format(result: z.output<typeof Single>) {
        return [
          { type: 'text', text: `File ${result.id}` },
          { type: 'text', text: `${result.size} bytes` },
        ];
      }
    }
    expect(parity(await bootWarnings({ tools: [BlocksTool] }))).toEqual([]);
  });

  it('warns when format() throws on a valid result, and skips tools without format() or output', async () => {
    const Single = z.object({ id: z.string().describe('Id') });
    @Tool('files_get_file', { description: 'Get a file.', input: Query, output: Single })
    class ThrowingTool {
      private readonly prefix = 'File';
      handle() {
        return { id: 'a' };
      }
      format(result: z.output<typeof Single>) {
        return `${this.prefix.trim()} ${result.id}`;
      }
    }
    @Tool('files_list_files', { description: 'List files.', input: Query, output: Single })
    class NoFormatTool {
      handle() {
        return { id: 'a' };
      }
    }
    @Tool('files_read_file', { description: 'Read a file.', input: Query })
    class ContentOnlyTool {
      handle() {
        return 'text';
      }
      format(result: string) {
        return result;
      }
    }
    expect(parity(await bootWarnings({ tools: [ThrowingTool, NoFormatTool, ContentOnlyTool] }))).toEqual([
      expect.stringMatching(
        /^Tool files_get_file \(ThrowingTool\): format\(\) threw on a sample result \(.+\); make it a pure function of the result that renders any valid one\. \[format-parity\]$/,
      ),
    ]);
  });

  it('checks a raw JSON Schema output too, following local $refs', async () => {
    @Tool('books_get_book', {
      description: 'Get a book.',
      input: Query,
      outputSchema: {
        type: 'object',
        $defs: { person: { type: 'object', properties: { name: { type: 'string', description: 'Name' } } } },
        properties: {
          isbn: { type: 'string', description: 'ISBN' },
          author: { $ref: '#/$defs/person', description: 'Author' },
        },
        required: ['isbn', 'author'],
      },
    })
    class RawOutputTool {
      handle() {
        return { isbn: '1', author: { name: 'A' } };
      }
      format(result: { isbn: string }) {
        return `ISBN ${result.isbn}`;
      }
    }
    expect(parity(await bootWarnings({ tools: [RawOutputTool] }))).toEqual([
      expect.stringContaining('format() leaves out output field(s) author.name:'),
    ]);
  });
});
