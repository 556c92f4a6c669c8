// Runs tasks on this instance and answers tasks/* for any task on the store. A task's work is its tool's handler,
// run round by round as a retried call would be: when it asks for input the task parks (input_required) with nothing
// running, and whichever instance receives the last answer (tasks/update) runs the next round, with every answer so
// far on ctx.inputs. While a round runs, its instance holds a lease it renews every third of MCP_TASKS_LEASE_MS, and
// looks for a cancellation left by another instance. A `working` task whose lease lapsed (its instance died) is
// reported failed (task_owner_lost) by the next reader, never left working.

import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { TasksConfig } from '../config/kiln-config.js';
import type { ContextSeed } from '../context/create-context.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import { kilnError } from '../errors/factories.js';
import { runToolRound } from '../pipeline/tool-pipeline.js';
import { nodeCrypto } from '../platform/lazy-builtins.js';
import {
  type CreateTaskResult,
  createTaskResult,
  detailedTask,
  type TaskRecord,
  TERMINAL_STATUSES,
} from './task-record.js';
import { type LiveTask, roundSeed, type TaskRuntime } from './task-round.js';
import { msUntilExpiry, type TaskStore } from './task-store.js';
import {
  inputRoundProblem,
  lostRecord,
  parkedRecord,
  resumedRecord,
  taskError,
  terminal,
  unknownTask,
} from './task-transitions.js';

/** A round's outcome: the tool's answer, or what the handler threw past the pipeline (a crash, for tasks). */
export type RoundOutcome = { readonly answer: CallToolResult | InputRequiredResult } | { readonly crash: unknown };

/** Rounds one task may run (each answered input, each state-only round); past it the task fails. */
const MAX_ROUNDS = 100;

export class TaskRunner {
  /** Names this instance in leases, so a reader can tell which instance a task belongs to. */
  readonly instanceId = nodeCrypto().randomUUID();
  private readonly live = new Map<string, LiveTask>();

  constructor(
    readonly runtime: TaskRuntime,
    readonly store: TaskStore,
    readonly config: TasksConfig,
  ) {}

  /** A task's work, counted among the requests in flight when the app tracks them. */
  private working(work: Promise<void>): Promise<void> {
    return this.runtime.track ? this.runtime.track(work) : work;
  }

  /** A new task's record: `working`, bound to the caller, carrying what later rounds need. */
  newRecord(tool: CompiledTool, args: unknown, seed: ContextSeed, owner: string, statusMessage?: string): TaskRecord {
    const now = new Date().toISOString();
    const state = seed.requestState?.();
    const address = seed.auth ? undefined : seed.http?.()?.remoteAddress;
    const holder = seed.auth ? owner : address === undefined ? undefined : `address:${address}`;
    return {
      v: 1,
      taskId: nodeCrypto().randomUUID(),
      tool: tool.name,
      status: 'working',
      ...(statusMessage ? { statusMessage } : {}),
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.config.ttlMs,
      pollIntervalMs: this.config.pollIntervalMs,
      owner,
      ...(holder === undefined ? {} : { holder }),
      ...(seed.auth ? { auth: seed.auth } : {}),
      ...(seed.clientCapabilities ? { clientCapabilities: seed.clientCapabilities } : {}),
      args,
      responses: { ...(seed.inputResponses ?? {}) },
      ...(typeof state === 'string' ? { requestState: state } : {}),
      issuedKeys: [],
      rounds: 0,
    };
  }

  /** Stores the task (durably: a tasks/get on any instance finds it once this resolves) and starts its first round. */
  async start(tenantId: string, record: TaskRecord): Promise<CreateTaskResult> {
    const live = await this.open(tenantId, record, new AbortController());
    void this.working(this.drive(live));
    return createTaskResult(record);
  }

  /** Stores the task for a handler already running (ctx.startTask): the round in flight is the task's first. */
  async adopt(tenantId: string, record: TaskRecord, controller: AbortController): Promise<LiveTask> {
    return this.open(tenantId, record, controller);
  }

  /** Carries a round that started as an ordinary call on as the task's work. */
  continueWith(live: LiveTask, round: Promise<RoundOutcome>): void {
    void this.working(this.drive(live, round));
  }

  /** tasks/get: the task as it stands, with a lapsed owner's `working` settled first. */
  async get(tenantId: string, taskId: string, owner: string) {
    let record = await this.readOwned(tenantId, taskId, owner);
    if (record.status === 'working' && !this.live.has(liveKey(tenantId, taskId))) {
      record = await this.settleIfOwnerLost(tenantId, record, owner);
    }
    if (record.status !== 'input_required') return detailedTask(record);
    const wireKeys = Object.keys(record.inputRequests ?? {});
    const answered = await this.store.answers(tenantId, taskId, wireKeys);
    const pending = Object.fromEntries(
      Object.entries(record.inputRequests ?? {}).filter(([wireKey]) => !answered.has(wireKey)),
    );
    return detailedTask(record, pending);
  }

  /** tasks/update: keeps answers to outstanding requests; the last one in resumes the task here. */
  async update(tenantId: string, taskId: string, owner: string, responses: Readonly<Record<string, unknown>>) {
    const record = await this.readOwned(tenantId, taskId, owner);
    if (record.status !== 'input_required') return;
    const outstanding = record.inputRequests ?? {};
    // Keys never issued, already answered or superseded are ignored, as the extension asks.
    const fresh = new Map(Object.entries(responses).filter(([wireKey]) => Object.hasOwn(outstanding, wireKey)));
    await this.store.storeAnswers(tenantId, record, fresh);
    await this.resumeIfAnswered(tenantId, record);
  }

  /** tasks/cancel: stops a task running here at once, one parked on input too; leaves a request for another instance. */
  async cancel(tenantId: string, taskId: string, owner: string): Promise<void> {
    const record = await this.readOwned(tenantId, taskId, owner);
    if (TERMINAL_STATUSES.has(record.status)) return;
    const live = this.live.get(liveKey(tenantId, taskId));
    if (live) return this.stop(live, 'cancelled', { statusMessage: 'Cancelled at the client’s request.' });
    if (record.status === 'input_required' && (await this.store.claimParked(tenantId, taskId))) {
      await this.writeStatus(tenantId, terminal(record, 'cancelled', 'Cancelled at the client’s request.'));
      return;
    }
    await this.store.requestCancel(tenantId, record);
  }

  /** Shutdown: what runs here is stopped and reported failed (task_interrupted) rather than left to its lease. */
  async close(): Promise<void> {
    const error = taskError(kilnError('task_interrupted', 'The server instance running this task shut down.'));
    await Promise.all(
      [...this.live.values()].map((live) => this.stop(live, 'failed', { error, statusMessage: error.message })),
    );
  }

  private async open(tenantId: string, record: TaskRecord, controller: AbortController): Promise<LiveTask> {
    const live: LiveTask = { tenantId, record, controller, done: false, writes: Promise.resolve(), timers: [] };
    // The lease first: a reader that finds the record `working` must find its lease too, or it would call it lost.
    await this.store.renewLease(tenantId, record.taskId, this.instanceId);
    // A new task's first status travels in its CreateTaskResult; a resumed one's is news to listeners.
    if (record.rounds === 0) await this.store.create(tenantId, record);
    else await this.writeStatus(tenantId, record);
    this.live.set(liveKey(tenantId, record.taskId), live);
    const beat = setInterval(() => void this.beat(live), Math.max(250, Math.floor(this.config.leaseMs / 3)));
    const expiry = setTimeout(() => void this.expire(live), msUntilExpiry(record));
    beat.unref();
    expiry.unref();
    live.timers.push(beat, expiry);
    return live;
  }

  /** Runs rounds until the task parks or ends. Storage failures end it as failed, never leave it working. */
  private async drive(live: LiveTask, first?: Promise<RoundOutcome>): Promise<void> {
    try {
      let next = first ?? this.round(live);
      for (;;) {
        const outcome = await next;
        if (live.done) return;
        if (!(await this.afterRound(live, outcome))) return;
        next = this.round(live);
      }
    } catch (error) {
      this.runtime.logger.error({ err: error, taskId: live.record.taskId }, 'Task failed in the task runner');
      const failure = taskError(kilnError('task_failed', `Task ${live.record.taskId} failed in the server.`));
      await this.stop(live, 'failed', { error: failure, statusMessage: failure.message }).catch(() => undefined);
    }
  }

  private round(live: LiveTask): Promise<RoundOutcome> {
    const tool = this.runtime.tools.get(live.record.tool);
    if (!tool) return Promise.resolve({ crash: new Error(`Tool ${live.record.tool} is no longer served.`) });
    const seed = roundSeed(this, live, tool);
    return runToolRound(this.runtime, tool, live.record.args, seed, { rethrowUnexpected: () => true }).then(
      (answer) => ({ answer }),
      (crash: unknown) => ({ crash }),
    );
  }

  /** Records a round's outcome; true when another round should run at once (a state-only input round). */
  private async afterRound(live: LiveTask, outcome: RoundOutcome): Promise<boolean> {
    const { record } = live;
    if ('crash' in outcome) {
      this.runtime.logger.error({ err: outcome.crash, taskId: record.taskId, tool: record.tool }, 'Task crashed');
      const error = taskError(kilnError('task_failed', `Task ${record.taskId} failed with an unexpected error.`));
      await this.stop(live, 'failed', { error, statusMessage: error.message });
      return false;
    }
    if (!isInputRequiredResult(outcome.answer)) {
      await this.stop(live, 'completed', { result: outcome.answer as Record<string, unknown> });
      return false;
    }
    const problem = inputRoundProblem(record, outcome.answer, MAX_ROUNDS);
    if (problem) {
      await this.stop(live, 'failed', { error: problem, statusMessage: problem.message });
      return false;
    }
    const round = outcome.answer as InputRequiredResult;
    if (Object.keys(round.inputRequests ?? {}).length === 0) {
      // Only requestState: the handler asked to be run again with it, which needs nobody's answer.
      record.requestState = round.requestState;
      record.rounds += 1;
      return true;
    }
    await this.park(live, round);
    return false;
  }

  /** Parks the task on input: nothing runs until the answers are in. */
  private async park(live: LiveTask, round: InputRequiredResult): Promise<void> {
    const { tenantId } = live;
    const record = parkedRecord(live.record, round);
    this.release(live);
    await this.enqueue(live, () => this.store.write(tenantId, record));
    await this.store.park(tenantId, record);
    await this.store.dropLease(tenantId, record.taskId);
    this.announce(tenantId, record);
    // Answers that arrived between the record and the token found no token to take: look once more.
    await this.resumeIfAnswered(tenantId, record);
  }

  private async resumeIfAnswered(tenantId: string, record: TaskRecord): Promise<void> {
    const wireKeys = Object.keys(record.inputRequests ?? {});
    const answers = await this.store.answers(tenantId, record.taskId, wireKeys);
    if (answers.size < wireKeys.length || !(await this.store.claimParked(tenantId, record.taskId))) return;
    const resumed = resumedRecord(record, answers);
    await this.store.clearAnswers(tenantId, record.taskId, wireKeys);
    if (await this.store.cancelRequested(tenantId, record.taskId)) {
      await this.writeStatus(tenantId, terminal(resumed, 'cancelled', 'Cancelled at the client’s request.'));
      return;
    }
    const live = await this.open(tenantId, resumed, new AbortController());
    void this.working(this.drive(live));
  }

  /** Renews the lease, and stops the task when another instance left a cancellation for it. */
  private async beat(live: LiveTask): Promise<void> {
    if (live.done) return;
    try {
      await this.store.renewLease(live.tenantId, live.record.taskId, this.instanceId);
      if (await this.store.cancelRequested(live.tenantId, live.record.taskId)) {
        await this.stop(live, 'cancelled', { statusMessage: 'Cancelled at the client’s request.' });
      }
    } catch (error) {
      this.runtime.logger.warning({ err: error, taskId: live.record.taskId }, 'Could not renew a task lease');
    }
  }

  private async expire(live: LiveTask): Promise<void> {
    const error = taskError(
      kilnError('task_expired', `Task ${live.record.taskId} ran out of its ${live.record.ttlMs} ms.`),
    );
    await this.stop(live, 'failed', { error, statusMessage: error.message }).catch(() => undefined);
  }

  /** Ends a task running here: aborts its signal, records the terminal status, gives up the lease. */
  private async stop(live: LiveTask, status: 'completed' | 'failed' | 'cancelled', fields: Partial<TaskRecord>) {
    if (live.done) return;
    this.release(live);
    if (status !== 'completed') live.controller.abort(new Error(`Task ${status}`));
    const record = Object.assign(terminal(live.record, status, fields.statusMessage), fields);
    await this.enqueue(live, () => this.store.write(live.tenantId, record));
    await this.store.dropLease(live.tenantId, record.taskId);
    this.announce(live.tenantId, record);
  }

  /** Stops the timers and forgets the task here; its record is written by the caller. */
  private release(live: LiveTask): void {
    live.done = true;
    for (const timer of live.timers) clearTimeout(timer);
    this.live.delete(liveKey(live.tenantId, live.record.taskId));
  }

  /** A running task's writes, one after another, so the last status written is the last one decided. */
  enqueue(live: LiveTask, write: () => Promise<unknown>): Promise<void> {
    const next = live.writes.then(write, write).then(() => undefined);
    live.writes = next.catch(() => undefined);
    return next;
  }

  /** Writes a record whose status changed, then tells listeners (notifications/tasks on any instance's streams). */
  private async writeStatus(tenantId: string, record: TaskRecord): Promise<void> {
    await this.store.write(tenantId, record);
    this.announce(tenantId, record);
  }

  private announce(tenantId: string, record: TaskRecord): void {
    this.runtime.notifier.taskStatus?.({ tenantId, owner: record.owner, task: detailedTask(record) });
  }

  private async readOwned(tenantId: string, taskId: string, owner: string): Promise<TaskRecord> {
    const record = await this.store.read(tenantId, taskId);
    // Another caller's task is as unknown as none, so ids reveal nothing across callers.
    if (!record || record.owner !== owner) throw unknownTask(taskId);
    return record;
  }

  /** A `working` task nobody holds the lease of: its instance stopped, so it is settled here, once. */
  private async settleIfOwnerLost(tenantId: string, record: TaskRecord, owner: string): Promise<TaskRecord> {
    if (await this.store.hasLease(tenantId, record.taskId)) return record;
    // The owner writes the record before it drops the lease: read again, so a task that just ended is not lost.
    const latest = await this.readOwned(tenantId, record.taskId, owner);
    if (latest.status !== 'working' || (await this.store.hasLease(tenantId, record.taskId))) return latest;
    const settled = (await this.store.cancelRequested(tenantId, record.taskId))
      ? terminal(latest, 'cancelled', 'Cancelled at the client’s request.')
      : lostRecord(latest);
    await this.writeStatus(tenantId, settled);
    return settled;
  }
}

function liveKey(tenantId: string, taskId: string): string {
  return `${tenantId}\u0000${taskId}`;
}
