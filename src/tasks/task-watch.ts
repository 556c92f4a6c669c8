// What a subscriptions/listen stream needs to carry one caller's notifications/tasks (the extension's optional push):
// the task as tasks/get would answer it now, sent right after the acknowledgement so a change made before the stream
// opened is not missed, and which status changes are that caller's to hear (its tenant, tasks it owns).
import type { AuthInfo, ClientCapabilities } from '@modelcontextprotocol/server';
import { McpError } from '../errors/mcp-error.js';
import type { TaskStatusChange } from '../notifications/change-notifier.js';
import { principalKeyOf, principalOf } from '../protocol/principal.js';
import type { TaskRunner } from './task-runner.js';
import { declaresTasks, tasksCapabilityMissing } from './tasks-extension.js';

export type DetailedTask = TaskStatusChange['task'];

export interface TaskWatch {
  /** -32021 when the listen request's capabilities do not declare the extension (it MUST be refused); else undefined. */
  capabilityRefusal(clientCapabilities: unknown): McpError | undefined;
  /** The task now (a DetailedTask); undefined when the caller holds no such task, as tasks/get would say. */
  snapshot(taskId: string): Promise<DetailedTask | undefined>;
  /** Whether a status change is about one of the caller's own tasks. */
  concerns(change: TaskStatusChange): boolean;
}

export function watchTasks(runner: TaskRunner, authInfo: AuthInfo | undefined): TaskWatch {
  const principal = principalOf(authInfo);
  const owner = principalKeyOf(principal);
  const { tenantId } = principal;
  return {
    capabilityRefusal: (capabilities) =>
      declaresTasks(capabilities as ClientCapabilities | undefined)
        ? undefined
        : tasksCapabilityMissing('A subscriptions/listen naming taskIds'),
    async snapshot(taskId) {
      // A caller without a tenant holds no task.
      if (tenantId === undefined) return undefined;
      try {
        return (await runner.get(tenantId, taskId, owner)) as DetailedTask;
      } catch (error) {
        if (error instanceof McpError && error.reason === 'unknown_task') return undefined;
        throw error;
      }
    },
    concerns: (change) => change.tenantId === tenantId && change.owner === owner,
  };
}
