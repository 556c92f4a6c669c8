// Task records in the tenant's storage (the StorageProvider seam behind ctx.state: in memory, on disk or on Redis), so
// every instance on one store answers for every task. Each writer has keys of its own, so no write races another:
// the running instance alone writes the record and its lease; any instance adds answers, a cancel request, or takes
// the one-shot token that lets exactly one of them resume or cancel a task parked on input.
import type { TasksConfig } from '../config/kiln-config.js';
import { kilnError } from '../errors/factories.js';
import type { ContextState } from '../storage/index.js';
import { type TaskRecord, TaskRecordSchema } from './task-record.js';

const PREFIX = 'tasks/';
const key = {
  record: (id: string) => `${PREFIX}record/${id}`,
  index: (id: string) => `${PREFIX}index/${id}`,
  held: (holder: string, id: string) => `${heldPrefix(holder)}${id}`,
  lease: (id: string) => `${PREFIX}lease/${id}`,
  cancel: (id: string) => `${PREFIX}cancel/${id}`,
  parked: (id: string) => `${PREFIX}parked/${id}`,
  // Wire keys are the handler's own strings; base64url keeps any of them inside the state key alphabet.
  answer: (id: string, wireKey: string) => `${PREFIX}input/${id}/${Buffer.from(wireKey).toString('base64url')}`,
};
const INDEX_PREFIX = `${PREFIX}index/`;
/** One caller's tasks, for its share of the quota; the holder is any string, so base64url keeps it a key segment. */
const heldPrefix = (holder: string) => `${PREFIX}held/${Buffer.from(holder).toString('base64url')}/`;
const PAGE = 1000;

export class TaskStore {
  constructor(
    private readonly stateFor: (tenantId: string) => ContextState,
    private readonly config: TasksConfig,
  ) {}

  /** Stores a new task, refusing it when the tenant, or the caller within it, already holds its limit of live tasks. */
  async create(tenantId: string, record: TaskRecord): Promise<void> {
    const state = this.stateFor(tenantId);
    const { maxPerTenant, maxPerSubject } = this.config;
    if ((await this.countLive(state, INDEX_PREFIX, maxPerTenant)) >= maxPerTenant) {
      throw kilnError(
        'task_limit_reached',
        `This tenant already holds ${maxPerTenant} tasks, the most the server keeps at once.`,
        { limit: maxPerTenant, share: 'tenant' },
      );
    }
    const { holder } = record;
    if (holder !== undefined && (await this.countLive(state, heldPrefix(holder), maxPerSubject)) >= maxPerSubject) {
      throw kilnError(
        'task_limit_reached',
        `You already hold ${maxPerSubject} tasks, the most one caller may hold of this tenant's ${maxPerTenant}.`,
        { limit: maxPerSubject, share: 'subject' },
      );
    }
    const ttl = remainingSeconds(record);
    const entries = new Map<string, unknown>([
      [key.record(record.taskId), record],
      [key.index(record.taskId), record.createdAt],
    ]);
    if (holder !== undefined) entries.set(key.held(holder, record.taskId), record.createdAt);
    await state.setMany(entries, { ttl });
  }

  /** The task, or undefined when there is none (never created, expired, or its stored value is unreadable). */
  async read(tenantId: string, taskId: string): Promise<TaskRecord | undefined> {
    const value = await this.stateFor(tenantId).get(key.record(taskId));
    if (value === null) return undefined;
    const parsed = TaskRecordSchema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  }

  /** Writes the record back for the rest of its time to live; false when that has run out (nothing written). */
  async write(tenantId: string, record: TaskRecord): Promise<boolean> {
    const ttl = remainingSeconds(record);
    if (ttl <= 0) return false;
    await this.stateFor(tenantId).set(key.record(record.taskId), record, { ttl });
    return true;
  }

  /** Claims (or renews) the running instance's lease: while it lives, readers trust a `working` status. */
  renewLease(tenantId: string, taskId: string, instanceId: string): Promise<void> {
    return this.stateFor(tenantId).set(key.lease(taskId), instanceId, { ttl: this.config.leaseMs / 1000 });
  }

  async hasLease(tenantId: string, taskId: string): Promise<boolean> {
    return (await this.stateFor(tenantId).get(key.lease(taskId))) !== null;
  }

  async dropLease(tenantId: string, taskId: string): Promise<void> {
    await this.stateFor(tenantId).delete(key.lease(taskId));
  }

  /** Leaves a cancellation for the instance running the task, which looks for it each time it renews its lease. */
  requestCancel(tenantId: string, record: TaskRecord): Promise<void> {
    return this.stateFor(tenantId).set(key.cancel(record.taskId), true, { ttl: remainingSeconds(record) || 1 });
  }

  async cancelRequested(tenantId: string, taskId: string): Promise<boolean> {
    return (await this.stateFor(tenantId).get(key.cancel(taskId))) !== null;
  }

  /** Marks a task parked on input: the token the resumer (or a canceller) takes, exactly once. */
  park(tenantId: string, record: TaskRecord): Promise<void> {
    return this.stateFor(tenantId).set(key.parked(record.taskId), record.rounds, {
      ttl: remainingSeconds(record) || 1,
    });
  }

  /** True for the one caller that takes the parked task: it alone resumes or cancels it. */
  async claimParked(tenantId: string, taskId: string): Promise<boolean> {
    return (await this.stateFor(tenantId).take(key.parked(taskId))) !== null;
  }

  /** Keeps answers to outstanding requests until all of them are in. */
  async storeAnswers(tenantId: string, record: TaskRecord, answers: ReadonlyMap<string, unknown>): Promise<void> {
    if (answers.size === 0) return;
    const entries = new Map([...answers].map(([wireKey, answer]) => [key.answer(record.taskId, wireKey), answer]));
    await this.stateFor(tenantId).setMany(entries, { ttl: remainingSeconds(record) || 1 });
  }

  /** The answers in so far, by wire key. */
  async answers(tenantId: string, taskId: string, wireKeys: readonly string[]): Promise<Map<string, unknown>> {
    if (wireKeys.length === 0) return new Map();
    const stored = await this.stateFor(tenantId).getMany(wireKeys.map((wireKey) => key.answer(taskId, wireKey)));
    const found = new Map<string, unknown>();
    for (const wireKey of wireKeys) {
      const answer = stored.get(key.answer(taskId, wireKey));
      if (answer !== undefined) found.set(wireKey, answer);
    }
    return found;
  }

  async clearAnswers(tenantId: string, taskId: string, wireKeys: readonly string[]): Promise<void> {
    if (wireKeys.length === 0) return;
    await this.stateFor(tenantId).deleteMany(wireKeys.map((wireKey) => key.answer(taskId, wireKey)));
  }

  /** Live tasks under `prefix`, counted from the small index entries (expired ones are never listed), up to `enough`. */
  private async countLive(state: ContextState, prefix: string, enough: number): Promise<number> {
    let count = 0;
    let cursor: string | undefined;
    do {
      const page = await state.list(prefix, { limit: PAGE, ...(cursor ? { cursor } : {}) });
      count += page.items.length;
      cursor = page.cursor;
    } while (cursor !== undefined && count < enough);
    return count;
  }
}

/** How long a task is kept past its ttlMs (at most a minute), so one stopped at its ttlMs can still be read failed. */
const GRACE_MS = 60_000;

/** Seconds the task's record has left to be kept: its ttlMs from creation, plus the grace; 0 once that has passed. */
export function remainingSeconds(record: TaskRecord, now = Date.now()): number {
  const left = Date.parse(record.createdAt) + record.ttlMs + Math.min(record.ttlMs, GRACE_MS) - now;
  return left > 0 ? left / 1000 : 0;
}

/** Milliseconds until the task's ttlMs runs out, when work still running there is stopped. */
export function msUntilExpiry(record: TaskRecord, now = Date.now()): number {
  return Math.max(0, Date.parse(record.createdAt) + record.ttlMs - now);
}
