// One round of a task's work as its handler sees it: a Context seeded from the stored record instead of a request.
// Its signal aborts on cancellation, expiry or shutdown; its progress becomes the task's status message (the
// extension carries no notifications/progress for tasks), and its log lines go to the process log only.
import type { RequestStateAccessor } from '@modelcontextprotocol/server';
import type { ContextSeed, RequestChannel } from '../context/create-context.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import type { ChangeSink } from '../notifications/change-notifier.js';
import type { PipelineRuntime } from '../pipeline/scoped-handler.js';
import type { TaskRecord } from './task-record.js';

/** What running a task's rounds needs from the compiled app. */
export interface TaskRuntime extends PipelineRuntime {
  readonly tools: ReadonlyMap<string, CompiledTool>;
  readonly notifier: ChangeSink;
  /** Counts a task's work among the app's requests in flight, so shutdown lets it finish within the drain. */
  readonly track?: <T>(work: Promise<T>) => Promise<T>;
}

/** A task whose round runs on this instance. */
export interface LiveTask {
  readonly tenantId: string;
  readonly record: TaskRecord;
  readonly controller: AbortController;
  /** Set once the task parked or ended here: a late outcome of its round is then ignored. */
  done: boolean;
  /** The chain of this task's record writes (see TaskRunner.enqueue). */
  writes: Promise<void>;
  readonly timers: NodeJS.Timeout[];
  /** A status-message write is queued; later progress only updates the record it will write. */
  progressQueued?: boolean;
}

export interface RoundHost {
  readonly runtime: TaskRuntime;
  readonly store: { write(tenantId: string, record: TaskRecord): Promise<boolean> };
  enqueue(live: LiveTask, write: () => Promise<unknown>): Promise<void>;
}

/** The Context seed of a round run as the task (the first round after ctx.startTask keeps its request's seed). */
export function roundSeed(host: RoundHost, live: LiveTask, tool: CompiledTool): ContextSeed {
  const { record, tenantId } = live;
  return {
    requestId: record.taskId,
    operation: tool.name,
    tenantId,
    auth: record.auth,
    era: 'envelope',
    signal: live.controller.signal,
    clientCapabilities: record.clientCapabilities,
    inputResponses: record.responses,
    requestState: (() => record.requestState) as RequestStateAccessor,
    channel: taskChannel(host, live, host.runtime.notifier),
    task: { taskId: record.taskId, start: () => Promise.resolve() },
  };
}

/** Where a task's notifications go: progress into its status message, list changes to the app's notifier. */
export function taskChannel(host: RoundHost, live: LiveTask, notifier: ChangeSink): RequestChannel {
  const { tenantId } = live;
  return {
    progress: (params) => statusProgress(host, live, params),
    toolListChanged: () => notifier.toolsChanged(),
    promptListChanged: () => notifier.promptsChanged(),
    resourceListChanged: () => notifier.resourcesChanged(tenantId),
    resourceUpdated: (uri) => notifier.resourceUpdated(uri, tenantId),
  };
}

/** ctx.progress in a task: the status message a poller sees, written once per burst of updates. */
export function statusProgress(
  host: RoundHost,
  live: LiveTask,
  params: { progress: number; total?: number; message?: string },
): Promise<void> {
  if (live.done) return Promise.resolve();
  const { record } = live;
  record.statusMessage =
    params.message ?? (params.total === undefined ? `${params.progress}` : `${params.progress}/${params.total}`);
  record.lastUpdatedAt = new Date().toISOString();
  if (live.progressQueued) return Promise.resolve();
  live.progressQueued = true;
  return host.enqueue(live, async () => {
    live.progressQueued = false;
    // A task that ended meanwhile has its terminal record queued after this one; writing here would be stale.
    if (!live.done) await host.store.write(live.tenantId, record);
  });
}
