// The Tasks extension's methods on one 2026-07-28 protocol server: tasks/get (the task with its payload), tasks/update
// (answers to a parked task's requests; an empty ack) and tasks/cancel (an empty ack, also for a task already ended).
// Each is refused with -32021 unless the request declares the extension, and answers -32602 for a task id this caller
// does not hold. tasks/result and tasks/list are gone from the extension, so the SDK answers them -32601.
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { principalKeyOf, requestPrincipal } from '../protocol/principal.js';
import type { TaskRunner } from './task-runner.js';
import { unknownTask } from './task-transitions.js';
import { declaresTasks, tasksCapabilityMissing } from './tasks-extension.js';

const TaskIdParams = z.object({ taskId: z.string().min(1) }).passthrough();

export function serveTasks(server: Server, runner: TaskRunner, served: <T>(work: Promise<T>) => Promise<T>): void {
  server.setRequestHandler('tasks/get', { params: TaskIdParams }, (params, sdk) =>
    served(
      withCaller(sdk, 'tasks/get', params.taskId, (tenantId, owner) => runner.get(tenantId, params.taskId, owner)),
    ),
  );
  server.setRequestHandler('tasks/update', { params: TaskIdParams }, async (params, sdk) => {
    // The SDK lifts inputResponses off every request (they are multi-round-trip material), wrapped entries dropped.
    const responses = sdk.mcpReq.inputResponses ?? {};
    await served(
      withCaller(sdk, 'tasks/update', params.taskId, (tenantId, owner) =>
        runner.update(tenantId, params.taskId, owner, responses),
      ),
    );
    return {};
  });
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params, sdk) => {
    await served(
      withCaller(sdk, 'tasks/cancel', params.taskId, (tenantId, owner) =>
        runner.cancel(tenantId, params.taskId, owner),
      ),
    );
    return {};
  });
}

/** Runs `work` as the request's caller, once the request has declared the extension. */
async function withCaller<T>(
  sdk: ServerContext,
  method: string,
  taskId: string,
  work: (tenantId: string, owner: string) => Promise<T>,
): Promise<T> {
  const envelope = sdk.mcpReq.envelope as Record<string, unknown> | undefined;
  if (!declaresTasks(envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)) {
    throw tasksCapabilityMissing(method);
  }
  const principal = requestPrincipal(sdk);
  // A caller without a tenant can hold no task, so every id is unknown to it.
  if (principal.tenantId === undefined) throw unknownTask(taskId);
  return work(principal.tenantId, principalKeyOf(principal));
}
