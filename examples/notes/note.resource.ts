// notes://{id}: each note as a markdown document; list() enumerates the caller's notes for resources/list.
import { type Context, Errors, type HandlerContext, Resource } from 'mcp-kiln';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { z } from 'zod';
import { NotesService } from './notes.service.js';

const Params = z.object({ id: z.string().describe('Note id') });

const Missing = [
  {
    reason: 'no_match',
    code: JsonRpcErrorCode.NotFound,
    when: 'No note has this id.',
    recovery: 'List resources to find the URI of an existing note.',
  },
] as const;

@Resource('notes://{id}', {
  name: 'note',
  title: 'Note',
  description: 'A note as markdown: title, tags and body.',
  mimeType: 'text/markdown',
  params: Params,
})
@Errors(Missing)
export class NoteResource {
  constructor(private readonly notes: NotesService) {}

  async handle(params: z.output<typeof Params>, ctx: HandlerContext<typeof Missing>) {
    const note = await this.notes.find(ctx, params.id);
    if (!note) throw ctx.fail('no_match');
    return `# ${note.title}\n\nTags: ${note.tags.join(', ') || 'none'}\n\n${note.body}`;
  }

  async list(ctx: Context) {
    return (await this.notes.all(ctx)).map((note) => ({ uri: `notes://${note.id}`, name: note.title }));
  }
}
