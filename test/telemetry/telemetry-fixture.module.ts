// The module the telemetry tests serve: the notes example plus a probe that reports the trace ids its Context got,
// logs, touches ctx.state, and takes arguments the input pipeline has to rename, repair and trim.
import { type HandlerContext, Module, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { NotesModule } from '../../examples/notes/notes.module.js';

const Input = z.object({
  note_text: z.string().default('').describe('Any text'),
  count: z.number().int().default(1).describe('How many times to probe'),
});

const Output = z.object({
  traceId: z.string().nullable().describe('ctx.traceId, or null'),
  spanId: z.string().nullable().describe('ctx.spanId, or null'),
});

@Tool('probe_trace', {
  description: 'Reports the trace and span ids its context carries after logging once and touching ctx.state.',
  annotations: { readOnlyHint: false },
  input: Input,
  output: Output,
})
export class ProbeTraceTool {
  async handle(input: z.output<typeof Input>, ctx: HandlerContext) {
    ctx.log.info('Probing', { count: input.count });
    await ctx.state.set('probe', { count: input.count });
    await ctx.state.get('probe');
    return { traceId: ctx.traceId ?? null, spanId: ctx.spanId ?? null };
  }
}

@Module({ imports: [NotesModule], tools: [ProbeTraceTool] })
export class TelemetryFixtureModule {}
