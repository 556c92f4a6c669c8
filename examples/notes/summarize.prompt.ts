// notes_summarize: a prompt asking the model to summarise the notes filed under a tag.
import { type Context, Prompt } from 'mcp-kiln';
import { z } from 'zod';
import { NotesService } from './notes.service.js';

const Args = z.object({
  tag: z.string().describe('Tag whose notes to summarise'),
  style: z.enum(['bullets', 'paragraph']).optional().describe('Summary style: bullets or paragraph'),
});

@Prompt('notes_summarize', {
  title: 'Summarise notes',
  description: 'Summarise every note filed under a tag.',
  args: Args,
})
export class SummarizePrompt {
  constructor(private readonly notes: NotesService) {}

  async handle(args: z.output<typeof Args>, ctx: Context) {
    const notes = (await this.notes.all(ctx)).filter((n) => n.tags.includes(args.tag));
    const listing = notes.map((n) => `- ${n.title}: ${n.body}`).join('\n') || '(no notes carry this tag)';
    return `Summarise these notes tagged "${args.tag}" as ${args.style ?? 'bullets'}:\n\n${listing}`;
  }

  async complete(argument: string, value: string) {
    if (argument === 'style') return ['bullets', 'paragraph'].filter((s) => s.startsWith(value));
    return [];
  }
}
