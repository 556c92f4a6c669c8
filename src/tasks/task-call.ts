// tools/call of a tool declared with `task`: the operation runner's tool kind, with rounds that answer with a task
// when the request declares the extension. `start: 'call'` makes the task before the handler runs; `start: 'handler'`
// runs the handler as an ordinary call until it calls ctx.startTask(), so it can first gather input in ordinary
// rounds (and return at once when there is no long work). Without the extension a task tool runs as an ordinary
// call; a `required` one is refused with -32021 on 2026-07-28 (2025 has no such extension, so it runs there too).
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { signalOf } from '../context/call-cancellation.js';
import type { ContextSeed, RequestChannel } from '../context/create-context.js';
import { ORDINARY_CALL, type TaskBinding } from '../context/task-binding.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import { kilnError } from '../errors/factories.js';
import { prepareArguments } from '../pipeline/input/index.js';
import type { OperationKind } from '../pipeline/operation-kind.js';
import { runToolRound, TOOL_OPERATION } from '../pipeline/tool-pipeline.js';
import { principalKeyOf } from '../protocol/principal.js';
import { type CreateTaskResult, createTaskResult } from './task-record.js';
import { statusProgress } from './task-round.js';
import type { RoundOutcome, TaskRunner } from './task-runner.js';
import { declaresTasks, tasksCapabilityMissing } from './tasks-extension.js';

export type TaskToolAnswer = CallToolResult | InputRequiredResult | CreateTaskResult;

/** The tool kind for task tools, built once per app around its task runner. */
export function taskToolOperation(runner: TaskRunner): OperationKind<CompiledTool, unknown, TaskToolAnswer> {
  return {
    ...(TOOL_OPERATION as OperationKind<CompiledTool, unknown, TaskToolAnswer>),
    round: (_runtime, tool, args, seed) => callTaskTool(runner, tool, args, { ...seed, operation: tool.name }),
  };
}

async function callTaskTool(
  runner: TaskRunner,
  tool: CompiledTool,
  args: unknown,
  seed: ContextSeed,
): Promise<TaskToolAnswer> {
  const support = tool.task;
  const asTask = seed.era === 'envelope' && declaresTasks(seed.clientCapabilities);
  if (!support || !asTask) {
    if (support?.support === 'required' && seed.era === 'envelope') throw tasksCapabilityMissing(`Tool ${tool.name}`);
    return runToolRound(runner.runtime, tool, args, { ...seed, task: ORDINARY_CALL });
  }
  const { tenantId } = seed;
  if (tenantId === undefined) {
    throw kilnError('task_tenant_missing', `Tool ${tool.name} runs as a task, and this request has no tenant.`);
  }
  // Arguments that cannot be parsed are answered now, as for any call, rather than in a task born failed.
  if (!prepareArguments(tool.input, args).ok) return runToolRound(runner.runtime, tool, args, seed);
  const owner = ownerOf(seed);
  if (support.start === 'call') return runner.start(tenantId, runner.newRecord(tool, args, seed, owner));
  return runUntilStarted(runner, tool, args, seed, tenantId, owner);
}

/**
 * start: 'handler': the handler runs as this call until ctx.startTask() stores the task; the call is then answered
 * with it and the rest of the round (its result, a crash, more input) becomes the task's. Before that, its input
 * rounds, progress and logs are the request's as usual.
 */
async function runUntilStarted(
  runner: TaskRunner,
  tool: CompiledTool,
  args: unknown,
  seed: ContextSeed,
  tenantId: string,
  owner: string,
): Promise<TaskToolAnswer> {
  // The task outlives the request: its signal follows the request's only until the task exists.
  const controller = new AbortController();
  const requestSignal = signalOf(seed.signal);
  const followRequest = () => {
    if (!live) controller.abort(requestSignal.reason);
  };
  requestSignal.addEventListener('abort', followRequest, { once: true });
  let live: Awaited<ReturnType<TaskRunner['adopt']>> | undefined;
  let announce: (result: CreateTaskResult) => void = () => undefined;
  const started = new Promise<CreateTaskResult>((resolve) => {
    announce = resolve;
  });
  const binding: TaskBinding = {
    get taskId() {
      return live?.record.taskId;
    },
    async start(statusMessage) {
      if (live) return;
      const record = runner.newRecord(tool, args, seed, owner, statusMessage);
      live = await runner.adopt(tenantId, record, controller);
      announce(createTaskResult(record));
    },
  };
  const seal = seed.sealRequestState;
  const round: Promise<RoundOutcome> = runToolRound(
    runner.runtime,
    tool,
    args,
    {
      ...seed,
      signal: controller.signal,
      channel: handoverChannel(runner, seed.channel, () => live),
      task: binding,
      // A round the task asks for keeps its requestState on the server; only the request's own go out sealed.
      ...(seal ? { sealRequestState: (state: string) => (live ? Promise.resolve(state) : seal(state)) } : {}),
    },
    { rethrowUnexpected: () => live !== undefined },
  ).then(
    (answer) => ({ answer }),
    (crash: unknown) => ({ crash }),
  );
  const first = await Promise.race([round, started]);
  if (live) {
    runner.continueWith(live, round);
    return started;
  }
  requestSignal.removeEventListener('abort', followRequest);
  const outcome = first as RoundOutcome;
  if ('crash' in outcome) throw outcome.crash;
  return outcome.answer;
}

/** The request's channel until the task exists; then progress feeds its status message and logs stay in the log. */
function handoverChannel(
  runner: TaskRunner,
  channel: RequestChannel,
  live: () => Awaited<ReturnType<TaskRunner['adopt']>> | undefined,
): RequestChannel {
  return {
    ...channel,
    progress: (params) => {
      const task = live();
      if (task) return statusProgress(runner, task, params);
      return channel.progress?.(params) ?? Promise.resolve();
    },
    ...(channel.log ? { log: (level, payload) => (live() ? undefined : channel.log?.(level, payload)) } : {}),
  };
}

/** Who may see the task: the caller as sealed requestState and consent records bind it. */
function ownerOf(seed: ContextSeed): string {
  return principalKeyOf({
    clientId: seed.auth?.clientId ?? '',
    subject: seed.auth?.subject ?? '',
    tenantId: seed.tenantId,
    auth: seed.auth,
  });
}
