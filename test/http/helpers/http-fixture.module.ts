// The module the HTTP host tests serve: the notes example plus two probes, one echoing what the request saw of its
// session and era, one slow enough (with progress) to still be running when shutdown begins.
import { type HandlerContext, Module, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { NotesModule } from '../../../examples/notes/notes.module.js';

const WhoAmIOutput = z.object({
  sessionId: z.string().nullable().describe('ctx.sessionId, or null when the request has no session'),
  era: z.enum(['handshake', 'envelope']).describe('The protocol era the request was served on'),
});

@Tool('probe_whoami', {
  description: 'Reports the session id and protocol era this request was served with.',
  annotations: { readOnlyHint: true },
  input: z.object({}),
  output: WhoAmIOutput,
})
export class WhoAmITool {
  handle(_input: unknown, ctx: HandlerContext) {
    return { sessionId: ctx.sessionId ?? null, era: ctx.era };
  }
}

const SlowInput = z.object({
  ms: z.number().int().min(0).max(5_000).default(300).describe('How long to work, in milliseconds'),
});
const SlowOutput = z.object({ sleptMs: z.number().describe('How long the call worked') });

@Tool('probe_slow', {
  description: 'Works for a while, reporting progress halfway and at the end, then answers.',
  annotations: { readOnlyHint: true },
  input: SlowInput,
  output: SlowOutput,
})
export class SlowTool {
  async handle(input: z.output<typeof SlowInput>, ctx: HandlerContext) {
    const half = input.ms / 2;
    await new Promise((resolve) => setTimeout(resolve, half));
    await ctx.progress(1, 2, 'halfway');
    await new Promise((resolve) => setTimeout(resolve, input.ms - half));
    await ctx.progress(2, 2, 'done');
    return { sleptMs: input.ms };
  }
}

@Module({ imports: [NotesModule], tools: [WhoAmITool, SlowTool] })
export class HttpFixtureModule {}
