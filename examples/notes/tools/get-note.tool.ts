// notes_get_note: one note by id, with a typed not-found failure.
import { Enrichment, Errors, type HandlerContext, InputAlias, Tool } from 'mcp-kiln';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { z } from 'zod';
import { NoteSchema } from '../note.js';
import { NotesService } from '../notes.service.js';

export const NoteNotFound = [
  {
    reason: 'no_match',
    code: JsonRpcErrorCode.NotFound,
    when: 'No note matched the id.',
    recovery: 'List notes with notes_search_notes first and call again with an id from that list.',
  },
] as const;

const NoteEnrichment = { notice: z.string().optional().describe('Guidance when something was left out') };

const Input = z.object({ id: z.string().describe('Note id') });

@Tool('notes_get_note', {
  title: 'Get note',
  description: 'Fetch one note by its id, with title, body, tags and creation time.',
  annotations: { readOnlyHint: true },
  input: Input,
  output: NoteSchema,
})
@Errors(NoteNotFound)
@Enrichment(NoteEnrichment)
@InputAlias({ note_id: 'id' })
export class GetNoteTool {
  constructor(private readonly notes: NotesService) {}

  async handle(input: z.output<typeof Input>, ctx: HandlerContext<typeof NoteNotFound, typeof NoteEnrichment>) {
    const note = await this.notes.find(ctx, input.id);
    if (!note) throw ctx.fail('no_match', `No note has id ${input.id}.`);
    if (note.body.length === 0) ctx.enrich.notice('This note has an empty body.');
    return note;
  }

  format(note: z.output<typeof NoteSchema>) {
    return `# ${note.title}\n\n**id:** ${note.id} | **created:** ${note.createdAt} | **tags:** ${note.tags.join(', ') || 'none'}\n\n${note.body}`;
  }
}
