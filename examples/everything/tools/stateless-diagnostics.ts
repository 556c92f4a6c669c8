// Diagnostic tools the server-stateless scenario (2026-07-28) looks up in tools/list: one that needs a client
// capability, one that asks for input mid-call, one that logs (no notifications/message may go out without a `_meta`
// logLevel) and two that fire list_changed notifications to open subscriptions/listen streams.
import { type HandlerContext, inputRequired, Tool } from 'mcp-kiln';
import { z } from 'zod';

const NoInput = z.object({});

const Proceed = z.object({ proceed: z.boolean().describe('Whether to continue') });

@Tool('test_missing_capability', {
  description:
    "Conformance diagnostic: needs the client's sampling capability; a client that did not declare it is refused (-32021).",
  annotations: { readOnlyHint: true, openWorldHint: true },
  input: NoInput,
})
export class MissingCapabilityTool {
  // The refusal is not written here: asking for sampling is enough. On 2026-07-28 the SDK answers a request the
  // envelope does not cover with MissingRequiredClientCapabilityError; on 2025 ctx.requestInput refuses it.
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    if (ctx.inputs.view('probe').kind === 'sampling') return 'Success';
    return ctx.requestInput({
      inputRequests: {
        probe: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Reply with any text.' } }],
          maxTokens: 10,
        }),
      },
    });
  }
}

@Tool('test_streaming_elicitation', {
  description:
    'Conformance diagnostic: asks the user to continue through an input_required result, never a server-sent request.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class StreamingElicitationTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    if (ctx.inputs.accepted('proceed', Proceed)) return 'Streaming complete';
    return ctx.requestInput({
      inputRequests: {
        proceed: inputRequired.elicit({ message: 'Continue the operation?', requestedSchema: Proceed }),
      },
    });
  }
}

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

export const StatelessDiagnostics = [
  MissingCapabilityTool,
  StreamingElicitationTool,
  LoggingDiagnosticTool,
  TriggerToolChangeTool,
  TriggerPromptChangeTool,
];
