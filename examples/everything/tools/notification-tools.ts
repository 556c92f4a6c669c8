// Tools that talk while they run: log records (tools-call-with-logging) and progress (tools-call-with-progress),
// each step ~50 ms apart so a client sees them arrive during the call rather than with the result; and one that
// closes its stream mid-call, answering after the client resumed it (server-sse-polling, SEP-1699).
import { setTimeout as sleep } from 'node:timers/promises';
import { type HandlerContext, Tool } from 'mcp-kiln';
import { z } from 'zod';

const NoInput = z.object({});
const STEP_MS = 50;

@Tool('test_tool_with_logging', {
  description: 'Conformance fixture: sends three info log messages about 50 ms apart, then reports success.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class ToolWithLoggingTool {
  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    ctx.log.info('Tool execution started');
    await sleep(STEP_MS, undefined, { signal: ctx.signal });
    ctx.log.info('Tool processing data');
    await sleep(STEP_MS, undefined, { signal: ctx.signal });
    ctx.log.info('Tool execution completed');
    return 'Tool with logging executed successfully';
  }
}

@Tool('test_tool_with_progress', {
  description:
    'Conformance fixture: reports progress 0, 50 and 100 of 100 about 50 ms apart when the call carries a progress token.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class ToolWithProgressTool {
  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    for (const step of [0, 50, 100]) {
      if (step > 0) await sleep(STEP_MS, undefined, { signal: ctx.signal });
      await ctx.progress(step, 100, `Completed step ${step} of 100`);
    }
    return 'Tool with progress executed successfully';
  }
}

@Tool('test_reconnection', {
  description:
    'Conformance fixture: closes its SSE stream mid-call (2025-11-25 sessions) and answers after the client resumes it with Last-Event-ID.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class ReconnectionTool {
  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const closed = ctx.closeStream();
    // Long enough for the client to see its stream end; the answer then waits in the event store for its resume.
    if (closed) await sleep(4 * STEP_MS, undefined, { signal: ctx.signal });
    return closed ? 'Answered after the stream was closed and resumed.' : 'Answered on the open stream.';
  }
}

export const NotificationTools = [ToolWithLoggingTool, ToolWithProgressTool, ReconnectionTool];
