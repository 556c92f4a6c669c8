// README example: a tool that reports its tenant's usage of the server (MCP_USAGE_ACCOUNTING=on) on a UTC day.
import { type Context, Inject, Tool, USAGE, type UsageLedger } from 'mcp-kiln';
import { z } from 'zod';

const Input = z.object({
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .describe('The UTC day as YYYY-MM-DD; today when left out'),
});

@Tool('library_usage_report', {
  description: 'How many calls this tenant made to each tool on a day, with errors and time spent, as a table.',
  annotations: { readOnlyHint: true },
  input: Input,
})
export class UsageReportTool {
  constructor(@Inject(USAGE) private readonly usage: UsageLedger) {}

  async handle(input: z.output<typeof Input>, ctx: Context) {
    const rows = await this.usage.daily(ctx.tenantId, input.day);
    if (rows.length === 0) return 'No calls counted on that day.';
    const lines = rows.map((row) => `| ${row.name} | ${row.calls} | ${row.errors} | ${Math.round(row.durationMs)} |`);
    return ['| tool | calls | errors | ms |', '| --- | --: | --: | --: |', ...lines].join('\n');
  }
}
