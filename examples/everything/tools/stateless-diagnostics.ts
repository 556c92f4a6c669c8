// Diagnostic tools the server-stateless scenario (2026-07-28) looks up in tools/list: one that logs (so the suite can
// check no notifications/message goes out without a `_meta` logLevel) and two that fire list_changed notifications
// to open subscriptions/listen streams.
import { type HandlerContext, Tool } from 'mcp-kiln';
import { z } from 'zod';

const NoInput = z.object({});

@Tool('test_logging_tool', {
  description:
    'Conformance diagnostic: logs one info message; the client receives it only when its request asked for a log level.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class LoggingDiagnosticTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    ctx.log.info('Diagnostic trace logging activated');
    return 'Logging evaluated';
  }
}

@Tool('test_trigger_tool_change', {
  description: 'Conformance diagnostic: announces a tools list change (notifications/tools/list_changed) to listeners.',
  annotations: { readOnlyHint: true, idempotentHint: true },
  input: NoInput,
})
export class TriggerToolChangeTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    ctx.notifyToolListChanged?.();
    return 'Tool list change announced';
  }
}

@Tool('test_trigger_prompt_change', {
  description:
    'Conformance diagnostic: announces a prompts list change (notifications/prompts/list_changed) to listeners.',
  annotations: { readOnlyHint: true, idempotentHint: true },
  input: NoInput,
})
export class TriggerPromptChangeTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    ctx.notifyPromptListChanged?.();
    return 'Prompt list change announced';
  }
}

export const StatelessDiagnostics = [LoggingDiagnosticTool, TriggerToolChangeTool, TriggerPromptChangeTool];
