// notes_delete_note: deletes a note once the user has confirmed it. The confirmation is the framework's consent gate
// (@RequiresConsent); the handler only deletes.
import { createHash } from 'node:crypto';
import { type Context, Errors, type HandlerContext, RequiresConsent, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { NotesService } from '../notes.service.js';
import { NoteNotFound } from './get-note.tool.js';

const Input = z.object({ id: z.string().describe('Id of the note to delete') });
type DeleteInput = z.output<typeof Input>;

const Output = z.object({ deleted: z.string().describe('Id of the note that was deleted') });

@Tool('notes_delete_note', {
  title: 'Delete note',
  description: 'Delete one note by its id. The user is asked to confirm first, and nothing is deleted without a yes.',
  annotations: { readOnlyHint: false, destructiveHint: true },
  input: Input,
  output: Output,
})
@Errors(NoteNotFound)
@RequiresConsent({
  message: (input: DeleteInput) => `Delete note ${input.id}?`,
  target: (input) => input.id,
  contentHash: 'hashOf',
})
export class DeleteNoteTool {
  constructor(private readonly notes: NotesService) {}

  async handle(input: DeleteInput, ctx: HandlerContext<typeof NoteNotFound>) {
    if (!(await this.notes.delete(ctx, input.id))) throw ctx.fail('no_match', `No note has id ${input.id}.`);
    return { deleted: input.id };
  }

  /** The note as the user was asked about it: an edit between the prompt and the retry voids the confirmation. */
  async hashOf(input: DeleteInput, ctx: Context): Promise<string> {
    const note = await this.notes.find(ctx, input.id);
    return note
      ? createHash('sha256')
          .update(JSON.stringify([note.title, note.body]))
          .digest('hex')
      : 'absent';
  }

  format(result: z.output<typeof Output>) {
    return `Deleted note ${result.deleted}.`;
  }
}
