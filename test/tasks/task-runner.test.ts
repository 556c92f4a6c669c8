// The task runner on in-memory storage, driven the way the tools/call handler and tasks/* drive it: per-tenant limits,
// tasks other callers cannot see, wire keys never reused when a handler asks under the same key again, rounds that
// only carry requestState, time to live, shutdown, and task tools where no task can be made.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Module, Tool } from '../../decorators/index.js';
import type { KilnApp } from '../../src/app/kiln-app.js';
import type { HandlerContext } from '../../src/context/context.js';
import { inputRequired } from '../../src/index.js';
import { type OperationSeed, runOperation } from '../../src/pipeline/operation-runner.js';
import { principalKeyOf } from '../../src/protocol/principal.js';
import type { TaskSupport } from '../../src/tasks/task-support.js';
import { TASKS_EXTENSION_ID } from '../../src/tasks/tasks-extension.js';
import { bootApp, closeBootedApps, QUIET_ENV } from '../di/boot-app.js';

const NoInput = z.object({});
const Answer = z.object({ answer: z.string() });

@Tool('ask_until_yes', {
  description: 'Asks the same question (key q) until the answer is yes.',
  input: NoInput,
  task: 'optional',
})
class AskUntilYes {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const answer = ctx.inputs.accepted('q', Answer);
    if (answer?.answer === 'yes') return 'Finally, yes.';
    return ctx.requestInput({
      inputRequests: { q: inputRequired.elicit({ message: 'Yes?', requestedSchema: Answer }) },
    });
  }
}

@Tool('count_rounds', {
  description: 'Asks to be run again with a counter in requestState until it reaches 3.',
  input: NoInput,
  task: 'optional',
})
class CountRounds {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const count = Number(ctx.inputs.state() ?? '0');
    if (count >= 3) return `Ran ${count + 1} rounds.`;
    return ctx.requestInput({ requestState: String(count + 1) });
  }
}

@Tool('wait_forever', {
  description: 'Waits until its task is stopped.',
  input: NoInput,
  task: 'required',
})
class WaitForever {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    return new Promise<string>((_resolve, reject) =>
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
    );
  }
}

@Tool('starts_late', {
  description: 'Starts its task itself, then reports whether it is one.',
  input: NoInput,
  task: { support: 'optional', start: 'handler' },
})
class StartsLate {
  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    await ctx.startTask();
    return ctx.taskId === undefined ? 'ordinary call' : 'task';
  }
}

@Tool('not_a_task', { description: 'Calls ctx.startTask() without declaring task.', input: NoInput })
class NotATask {
  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    await ctx.startTask();
    return 'unreachable';
  }
}

@Module({ tools: [AskUntilYes, CountRounds, WaitForever, StartsLate, NotATask] })
class TaskFixtureModule {}

afterAll(() => closeBootedApps());

const OWNER = principalKeyOf({ clientId: '', subject: '', tenantId: 'default', auth: undefined });

function seed(overrides: Partial<OperationSeed> = {}): OperationSeed {
  return {
    requestId: 'req-1',
    tenantId: 'default',
    era: 'envelope',
    signal: new AbortController().signal,
    clientCapabilities: {
      elicitation: {},
      extensions: { [TASKS_EXTENSION_ID]: {} },
    } as OperationSeed['clientCapabilities'],
    channel: {},
    ...overrides,
  };
}

async function boot(env: Record<string, string> = {}) {
  const app = await bootApp(TaskFixtureModule, { env: { ...QUIET_ENV, ...env } });
  const tasks = app.runtime.tasks as TaskSupport;
  const call = async (name: string, overrides: Partial<OperationSeed> = {}) =>
    (await runOperation(tasks.operation, app.runtime, name, {}, seed(overrides))) as Record<string, unknown>;
  const get = (taskId: unknown) =>
    tasks.runner.get('default', String(taskId), OWNER) as Promise<Record<string, unknown>>;
  const settled = (taskId: unknown, status: string) =>
    vi.waitFor(
      async () => {
        const task = await get(taskId);
        expect(task.status).toBe(status);
        return task;
      },
      { timeout: 5000, interval: 20 },
    );
  return { app, tasks, call, get, settled };
}

describe('the task runner', () => {
  it('refuses a new task past MCP_TASKS_MAX_PER_TENANT with task_limit_reached', async () => {
    const { call } = await boot({ MCP_TASKS_MAX_PER_TENANT: '2' });
    await call('wait_forever');
    await call('wait_forever');
    await expect(call('wait_forever')).rejects.toMatchObject({
      code: -32011,
      data: { reason: 'task_limit_reached', limit: 2 },
    });
  });

  it('holds each caller to MCP_TASKS_MAX_PER_SUBJECT of the tenant’s tasks; a colleague still starts its own', async () => {
    const { call } = await boot({ MCP_TASKS_MAX_PER_TENANT: '10', MCP_TASKS_MAX_PER_SUBJECT: '2' });
    const as = (subject: string) => ({
      tenantId: 'acme',
      auth: { clientId: 'desk', subject, tenantId: 'acme', scopes: [] },
    });
    await call('wait_forever', as('alice'));
    await call('wait_forever', as('alice'));
    await expect(call('wait_forever', as('alice'))).rejects.toMatchObject({
      code: -32011,
      data: { reason: 'task_limit_reached', limit: 2, share: 'subject' },
    });
    await call('wait_forever', as('bob'));
    await call('wait_forever', as('bob'));

    // Anonymous HTTP callers are told apart by address; stdio has one caller, held to the tenant's limit only.
    const from = (remoteAddress: string) => ({ http: () => ({ headers: {}, remoteAddress, url: 'http://x/mcp' }) });
    await call('wait_forever', from('203.0.113.1'));
    await call('wait_forever', from('203.0.113.1'));
    await expect(call('wait_forever', from('203.0.113.1'))).rejects.toMatchObject({
      data: { reason: 'task_limit_reached', share: 'subject' },
    });
    await call('wait_forever', from('198.51.100.2'));
    for (let i = 0; i < 7; i++) await call('wait_forever');
    await expect(call('wait_forever')).rejects.toMatchObject({
      data: { reason: 'task_limit_reached', limit: 10, share: 'tenant' },
    });
  });

  it('shows a task to the caller it was made for only; anyone else gets unknown_task, as for no task at all', async () => {
    const { tasks, call } = await boot();
    const { taskId } = await call('wait_forever');
    const stranger = principalKeyOf({ clientId: 'other', subject: 'eve', tenantId: 'default', auth: undefined });
    await expect(tasks.runner.get('default', String(taskId), stranger)).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'unknown_task' },
    });
    await expect(tasks.runner.cancel('other-tenant', String(taskId), OWNER)).rejects.toMatchObject({ code: -32602 });
  });

  it('issues a new wire key when the handler asks under the same key again, and maps the answer back to its key', async () => {
    const { tasks, call, settled } = await boot();
    const { taskId } = await call('ask_until_yes');
    const first = await settled(taskId, 'input_required');
    expect(Object.keys(first.inputRequests as object)).toEqual(['q']);
    await tasks.runner.update('default', String(taskId), OWNER, { q: { action: 'accept', content: { answer: 'no' } } });

    const second = await vi.waitFor(
      async () => {
        const task = await tasks.runner.get('default', String(taskId), OWNER);
        expect(Object.keys((task as { inputRequests?: object }).inputRequests ?? {})).toEqual(['q.2']);
        return task;
      },
      { timeout: 5000, interval: 20 },
    );
    expect(second.status).toBe('input_required');
    // The spent key is ignored; the fresh one is the handler's `q` again.
    await tasks.runner.update('default', String(taskId), OWNER, {
      q: { action: 'accept', content: { answer: 'yes' } },
    });
    expect((await tasks.runner.get('default', String(taskId), OWNER)).status).toBe('input_required');
    await tasks.runner.update('default', String(taskId), OWNER, {
      'q.2': { action: 'accept', content: { answer: 'yes' } },
    });
    const done = await settled(taskId, 'completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'Finally, yes.' }] });
  });

  it('runs a round that only carries requestState again at once, with that state', async () => {
    const { call, settled } = await boot();
    const { taskId } = await call('count_rounds');
    const done = await settled(taskId, 'completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'Ran 4 rounds.' }] });
  });

  it('stops a task still running at its ttlMs and reports it failed (task_expired)', async () => {
    const { call, settled } = await boot({ MCP_TASKS_TTL_MS: '1000' });
    const { taskId, ttlMs } = await call('wait_forever');
    expect(ttlMs).toBe(1000);
    const expired = await settled(taskId, 'failed');
    expect(expired.error).toMatchObject({ code: -32603, data: { reason: 'task_expired' } });
  });

  it('records the tasks still running at shutdown as failed (task_interrupted)', async () => {
    const { tasks, call, get } = await boot();
    const { taskId } = await call('wait_forever');
    await tasks.runner.close();
    expect(await get(taskId)).toMatchObject({ status: 'failed', error: { data: { reason: 'task_interrupted' } } });
  });

  it('lets ctx.startTask() go on inline where no task can be made, and rejects it in a tool not declared as one', async () => {
    const { app, call, settled } = await boot();
    const direct = await (app as KilnApp).callTool('starts_late', {});
    expect(direct.content).toEqual([{ type: 'text', text: 'ordinary call' }]);
    const started = await call('starts_late');
    expect(started.resultType).toBe('task');
    expect((await settled(started.taskId, 'completed')).result).toEqual({ content: [{ type: 'text', text: 'task' }] });

    const undeclared = await (app as KilnApp).callTool('not_a_task', {});
    expect(undeclared.isError).toBe(true);
  });
});
