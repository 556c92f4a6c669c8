// A task as it is stored (one JSON value per task in the tenant's storage) and as it goes on the wire: the stored
// record keeps what any instance needs to answer tasks/* and to run the next round (tool, arguments, answers so far,
// who owns it); the wire shapes are the extension's CreateTaskResult and DetailedTask.
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { AuthContext } from '../context/request-context.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

export interface TaskRecord {
  readonly v: 1;
  readonly taskId: string;
  readonly tool: string;
  status: TaskStatus;
  statusMessage?: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The caller the task is bound to (principalKeyOf); every tasks/* request must come from the same one. */
  readonly owner: string;
  /**
   * Whose share of the tenant's task quota the task counts against (MCP_TASKS_MAX_PER_SUBJECT): the owner when
   * authenticated, the caller's address for anonymous HTTP; none over stdio, which has one caller.
   */
  readonly holder?: string;
  readonly auth?: AuthContext;
  readonly clientCapabilities?: ClientCapabilities;
  /** The call's arguments, as the client sent them: every round prepares them again, as a retried call would. */
  readonly args: unknown;
  /** Every answer so far, keyed as the handler asked (ctx.inputs), across ordinary rounds and the task's own. */
  responses: Record<string, unknown>;
  /** The handler's requestState from its last round; kept here, never sent to the client. */
  requestState?: string;
  /** Outstanding requests of an input_required task, keyed by wire key (unique over the task's life). */
  inputRequests?: Record<string, unknown>;
  /** Wire key → the key the handler asked under. */
  keyMap?: Record<string, string>;
  /** Every wire key issued so far, so none is ever reused. */
  issuedKeys: string[];
  /** Rounds the handler has run, for the guard against a handler that never stops asking. */
  rounds: number;
  result?: Record<string, unknown>;
  error?: TaskError;
}

/** Read back defensively: a stored value no write produced is reported, never trusted. */
export const TaskRecordSchema = z
  .object({
    v: z.literal(1),
    taskId: z.string(),
    tool: z.string(),
    status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
    statusMessage: z.string().optional(),
    createdAt: z.string(),
    lastUpdatedAt: z.string(),
    ttlMs: z.number().int().positive(),
    pollIntervalMs: z.number().int().positive(),
    owner: z.string(),
    holder: z.string().optional(),
    auth: z.record(z.string(), z.unknown()).optional(),
    clientCapabilities: z.record(z.string(), z.unknown()).optional(),
    args: z.unknown(),
    responses: z.record(z.string(), z.unknown()),
    requestState: z.string().optional(),
    inputRequests: z.record(z.string(), z.unknown()).optional(),
    keyMap: z.record(z.string(), z.string()).optional(),
    issuedKeys: z.array(z.string()),
    rounds: z.number().int().nonnegative(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z
      .object({ code: z.number(), message: z.string(), data: z.record(z.string(), z.unknown()).optional() })
      .optional(),
  })
  .passthrough() as unknown as z.ZodType<TaskRecord>;

/** The extension's Task fields every shape carries. */
function taskFields(record: TaskRecord) {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage ? { statusMessage: record.statusMessage } : {}),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** What tools/call answers when it made a task: flat (Result & Task), no result, error or inputRequests. */
export function createTaskResult(record: TaskRecord) {
  return { resultType: 'task' as const, ...taskFields(record) };
}

/** tasks/get (and notifications/tasks): the Task with the payload its status carries. */
export function detailedTask(record: TaskRecord, pending?: Readonly<Record<string, unknown>>) {
  const fields = taskFields(record);
  switch (record.status) {
    case 'input_required':
      return { ...fields, inputRequests: pending ?? record.inputRequests ?? {} };
    case 'completed':
      return { ...fields, result: record.result ?? { content: [] } };
    case 'failed':
      return { ...fields, error: record.error ?? { code: -32603, message: 'The task failed.' } };
    default:
      return fields;
  }
}

export type CreateTaskResult = ReturnType<typeof createTaskResult>;

export function isCreateTaskResult(value: unknown): value is CreateTaskResult {
  return typeof value === 'object' && value !== null && (value as { resultType?: unknown }).resultType === 'task';
}
