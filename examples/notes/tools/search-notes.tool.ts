// notes_search_notes: a capped list that says when it was capped.
import { Enrichment, type HandlerContext, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { NoteSchema } from '../note.js';
import { NotesService } from '../notes.service.js';

const Input = z.object({
  query: z.string().describe('Words to find in titles and bodies; empty matches every note'),
  tag: z.string().optional().describe('Only notes carrying this tag'),
  limit: z.number().int().min(1).max(50).default(10).describe('Most notes to return (1-50)'),
});

const Output = z.object({ notes: z.array(NoteSchema).describe('Matching notes, newest first') });

const SearchEnrichment = {
  effectiveQuery: z.string().describe('The query as the server applied it'),
  totalCount: z.number().describe('Matches before the limit'),
  truncated: z.boolean().optional().describe('True when the list was capped at the limit'),
  shown: z.number().optional().describe('Number of notes returned'),
  cap: z.number().optional().describe('The limit that was applied'),
  notice: z.string().optional().describe('Guidance when nothing matched or the list was capped'),
};

@Tool('notes_search_notes', {
  title: 'Search notes',
  description:
    'Search notes by words in the title or body, optionally filtered by tag; returns up to limit notes, newest first, and says when more matched.',
  annotations: { readOnlyHint: true },
  input: Input,
  output: Output,
})
@Enrichment(SearchEnrichment)
export class SearchNotesTool {
  constructor(private readonly notes: NotesService) {}

  async handle(input: z.output<typeof Input>, ctx: HandlerContext<readonly [], typeof SearchEnrichment>) {
    const matches = await this.notes.search(ctx, input.query.trim(), input.tag);
    ctx.enrich.echo(input.query.trim());
    ctx.enrich.total(matches.length);
    if (matches.length === 0)
      ctx.enrich.notice(`No notes matched "${input.query}". Try fewer words or drop the tag filter.`);
    if (matches.length > input.limit) {
      ctx.enrich.truncated({
        shown: input.limit,
        cap: input.limit,
        guidance: `Showing ${input.limit} of ${matches.length} notes. Narrow the query or raise limit (max 50).`,
      });
    }
    return { notes: matches.slice(0, input.limit) };
  }

  format(result: z.output<typeof Output>) {
    if (result.notes.length === 0) return 'No notes.';
    return result.notes
      .map(
        (n) =>
          `## ${n.title}\n**id:** ${n.id} | **created:** ${n.createdAt} | **tags:** ${n.tags.join(', ') || 'none'}\n${n.body}`,
      )
      .join('\n\n');
  }
}
