// notes_create_note: stores a note for the caller's tenant.
import { type HandlerContext, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { NoteSchema } from '../note.js';
import { NotesService } from '../notes.service.js';

const Input = z.object({
  title: z.string().min(1).max(200).describe('Title of the note'),
  body: z.string().describe('Body text (markdown allowed)'),
  tags: z.array(z.string().describe('A tag')).default([]).describe('Tags to file the note under'),
});

@Tool('notes_create_note', {
  title: 'Create note',
  description: 'Create a note with a title, a body and optional tags; returns the stored note with its id.',
  annotations: { readOnlyHint: false, idempotentHint: false },
  input: Input,
  output: NoteSchema,
  // A client unsure whether a create took effect calls again with the same _meta["mcp-kiln/idempotency-key"].
  idempotent: true,
})
export class CreateNoteTool {
  constructor(private readonly notes: NotesService) {}

  handle(input: z.output<typeof Input>, ctx: HandlerContext) {
    ctx.log.info('Creating note', { title: input.title });
    return this.notes.create(ctx, input);
  }

  format(note: z.output<typeof NoteSchema>) {
    return `Created note **${note.title}** (id ${note.id}, ${note.createdAt}).\n\nTags: ${note.tags.join(', ') || 'none'}\n\n${note.body}`;
  }
}
