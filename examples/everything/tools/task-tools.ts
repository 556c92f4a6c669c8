// The Tasks extension fixtures (tasks-* scenarios): a tool that never runs as a task, tools that always do when the
// client declares the extension, tools that ask for input inside the task (answered through tasks/update), and one
// that gathers input in ordinary rounds first and then starts its task (MRTR then task). Names are the suite's.
import { Errors, type HandlerContext, inputRequired, Tool } from 'mcp-kiln';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { z } from 'zod';

const NoInput = z.object({});
const Name = z.object({ name: z.string().describe('Your name') });
const Confirm = z.object({ confirm: z.boolean().describe('True to go ahead') });

/** Waits `ms`, or rejects as soon as the task is cancelled (its signal aborts). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

const Greet = z.object({ name: z.string().describe('Who to greet') });

@Tool('greet', {
  description: 'Tasks fixture: greets someone at once; it never runs as a task.',
  annotations: { readOnlyHint: true },
  input: Greet,
})
export class GreetTool {
  handle(input: z.output<typeof Greet>) {
    return `Hello, ${input.name}!`;
  }
}

const SlowCompute = z.object({
  seconds: z.number().min(0).max(600).describe('How long the computation takes, in seconds'),
  label: z.string().optional().describe('A label echoed in the result'),
});

@Tool('slow_compute', {
  description:
    'Tasks fixture: computes for the given number of seconds, reporting progress; runs as a task for clients that declare the Tasks extension, and stops when the task is cancelled.',
  annotations: { readOnlyHint: true },
  input: SlowCompute,
  task: 'optional',
})
export class SlowComputeTool {
  async handle(input: z.output<typeof SlowCompute>, ctx: HandlerContext) {
    const steps = Math.ceil(input.seconds * 4);
    for (let step = 0; step < steps; step += 1) {
      await ctx.progress(step, steps, `Computing ${input.label ?? 'result'}: ${Math.round((step / steps) * 100)}%`);
      await pause(250, ctx.signal);
    }
    return `Computed ${input.label ?? 'result'} in ${input.seconds} s.`;
  }
}

const JobFailure = [
  {
    reason: 'job_failed',
    code: JsonRpcErrorCode.InternalError,
    when: 'Always: this job exists to exercise a task whose tool reports an error.',
    recovery: 'Nothing to fix; call slow_compute for a task that succeeds.',
  },
] as const;

@Tool('failing_job', {
  description:
    'Tasks fixture: a job that must run as a task and always ends in a tool error (the task completes with isError).',
  annotations: { readOnlyHint: true },
  input: NoInput,
  task: 'required',
})
@Errors(JobFailure)
export class FailingJobTool {
  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext<typeof JobFailure>): Promise<never> {
    await pause(1000, ctx.signal);
    throw ctx.fail('job_failed', 'The job failed, as this fixture always does.');
  }
}

@Tool('protocol_error_job', {
  description: 'Tasks fixture: a job that crashes inside the server, so its task ends failed with a JSON-RPC error.',
  annotations: { readOnlyHint: true },
  input: NoInput,
  task: 'optional',
})
export class ProtocolErrorJobTool {
  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext): Promise<string> {
    await pause(100, ctx.signal);
    throw new Error('protocol_error_job crashed on purpose.');
  }
}

const ConfirmDelete = z.object({ filename: z.string().describe('The file to delete') });

@Tool('confirm_delete', {
  description: 'Tasks fixture: asks for a confirmation inside its task (tasks/get shows it), then deletes nothing.',
  annotations: { destructiveHint: true },
  input: ConfirmDelete,
  task: 'optional',
})
export class ConfirmDeleteTool {
  handle(input: z.output<typeof ConfirmDelete>, ctx: HandlerContext) {
    const answer = ctx.inputs.accepted('confirm', Confirm);
    if (answer) return answer.confirm ? `Deleted ${input.filename}.` : `Kept ${input.filename}.`;
    return ctx.requestInput({
      inputRequests: {
        confirm: inputRequired.elicit({ message: `Delete ${input.filename}?`, requestedSchema: Confirm }),
      },
    });
  }
}

@Tool('multi_input', {
  description: 'Tasks fixture: asks two questions at once inside its task; either may be answered first.',
  annotations: { readOnlyHint: true },
  input: NoInput,
  task: 'optional',
})
export class MultiInputTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const first = ctx.inputs.view('first');
    const second = ctx.inputs.view('second');
    if (first.kind === 'elicit' && second.kind === 'elicit') {
      return `Answers: first ${first.action}, second ${second.action}.`;
    }
    return ctx.requestInput({
      inputRequests: {
        first: inputRequired.elicit({ message: 'First question: your name?', requestedSchema: Name }),
        second: inputRequired.elicit({ message: 'Second question: confirm?', requestedSchema: Confirm }),
      },
    });
  }
}

@Tool('test_tool_with_task', {
  description:
    'Tasks fixture: asks for your name in an ordinary round (key user_name), then starts a task that greets you.',
  annotations: { readOnlyHint: true },
  input: NoInput,
  task: { support: 'required', start: 'handler' },
})
export class ToolWithTask {
  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const answer = ctx.inputs.accepted('user_name', Name);
    if (!answer) {
      return ctx.requestInput({
        inputRequests: { user_name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: Name }) },
      });
    }
    await ctx.startTask('Preparing the greeting.');
    await pause(500, ctx.signal);
    return `Hello, ${answer.name}! (from task ${ctx.taskId})`;
  }
}

export const TaskTools = [
  GreetTool,
  SlowComputeTool,
  FailingJobTool,
  ProtocolErrorJobTool,
  ConfirmDeleteTool,
  MultiInputTool,
  ToolWithTask,
];
