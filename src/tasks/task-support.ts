// An app's Tasks extension support, built once at boot when any tool declares `task`: the runner (tasks here, tasks/*
// for any) and the tools/call kind that hands task tools to it.
import type { TasksConfig } from '../config/kiln-config.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import type { OperationKind } from '../pipeline/operation-kind.js';
import type { ContextState } from '../storage/index.js';
import { type TaskToolAnswer, taskToolOperation } from './task-call.js';
import type { TaskRuntime } from './task-round.js';
import { TaskRunner } from './task-runner.js';
import { TaskStore } from './task-store.js';

export interface TaskSupport {
  readonly runner: TaskRunner;
  /** tools/call of a tool declared with `task`, in place of the plain tool kind. */
  readonly operation: OperationKind<CompiledTool, unknown, TaskToolAnswer>;
}

export function createTaskSupport(
  runtime: TaskRuntime,
  stateFor: (tenantId: string) => ContextState,
  config: TasksConfig,
): TaskSupport {
  const runner = new TaskRunner(runtime, new TaskStore(stateFor, config), config);
  return { runner, operation: taskToolOperation(runner) };
}
