// A task's changes of status as record transitions. Input rounds: the handler asks under its own keys; on the wire
// each request gets a key never used before in the task (the extension requires it), mapped back when the answers
// come in, so the handler reads them on ctx.inputs under the keys it asked with. Endings: terminal records, with the
// JSON-RPC error a failed task carries.
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import {
  capabilityForRequest,
  capabilityShape,
  declaresCapability,
  type InputCapability,
} from '../context/input-capabilities.js';
import { kilnError } from '../errors/factories.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { type McpError } from '../errors/mcp-error.js';
import type { TaskError, TaskRecord } from './task-record.js';

/** Why the round cannot park the task (too many rounds, input the client cannot give); undefined when it can. */
export function inputRoundProblem(
  record: TaskRecord,
  round: InputRequiredResult,
  maxRounds: number,
): TaskError | undefined {
  if (record.rounds + 1 > maxRounds) {
    return {
      code: JsonRpcErrorCode.InternalError,
      message: `Task ${record.taskId} asked for input more than ${maxRounds} times; it was stopped.`,
      data: { reason: 'task_failed' },
    };
  }
  const missing: InputCapability[] = [];
  for (const request of Object.values(round.inputRequests ?? {})) {
    const needed = capabilityForRequest(request as { method: string; params?: unknown });
    if (needed === undefined) continue;
    if (record.clientCapabilities !== undefined && declaresCapability(record.clientCapabilities, needed)) continue;
    if (!missing.includes(needed)) missing.push(needed);
  }
  if (missing.length === 0) return undefined;
  return {
    code: JsonRpcErrorCode.MissingRequiredClientCapability,
    message: `Task ${record.taskId} needs input of a kind the client did not declare (${missing.join(', ')}).`,
    data: { requiredCapabilities: capabilityShape(missing) },
  };
}

/** The record parked on this round's requests, each under a wire key unique over the task's life. */
export function parkedRecord(record: TaskRecord, round: InputRequiredResult): TaskRecord {
  const issuedKeys = [...record.issuedKeys];
  const inputRequests: Record<string, unknown> = {};
  const keyMap: Record<string, string> = {};
  for (const [handlerKey, request] of Object.entries(round.inputRequests ?? {})) {
    let wireKey = handlerKey;
    for (let n = 2; issuedKeys.includes(wireKey); n += 1) wireKey = `${handlerKey}.${n}`;
    issuedKeys.push(wireKey);
    inputRequests[wireKey] = request;
    keyMap[wireKey] = handlerKey;
  }
  const { statusMessage: _message, ...rest } = record;
  return {
    ...rest,
    status: 'input_required',
    lastUpdatedAt: new Date().toISOString(),
    inputRequests,
    keyMap,
    issuedKeys,
    rounds: record.rounds + 1,
    ...(round.requestState !== undefined ? { requestState: round.requestState } : {}),
  };
}

/** The record about to run its next round, with the answers on the handler's keys. */
export function resumedRecord(record: TaskRecord, answers: ReadonlyMap<string, unknown>): TaskRecord {
  const responses = { ...record.responses };
  for (const [wireKey, answer] of answers) responses[record.keyMap?.[wireKey] ?? wireKey] = answer;
  const { inputRequests: _requests, keyMap: _keys, ...rest } = record;
  return { ...rest, status: 'working', lastUpdatedAt: new Date().toISOString(), responses };
}

export function unknownTask(taskId: string): McpError {
  return kilnError('unknown_task', `Task not found: ${taskId} (never created, expired, or not yours).`, { taskId });
}

/** A JSON-RPC error as a failed task carries it. */
export function taskError(error: McpError) {
  return { code: error.code, message: error.message, ...(error.data ? { data: { ...error.data } } : {}) };
}

/** The record ended: the last progress message goes (it described work that is over) unless a new one is given. */
export function terminal(record: TaskRecord, status: TaskRecord['status'], statusMessage?: string): TaskRecord {
  const { inputRequests: _requests, keyMap: _keys, statusMessage: _last, ...rest } = record;
  return {
    ...rest,
    status,
    ...(statusMessage ? { statusMessage } : {}),
    lastUpdatedAt: new Date().toISOString(),
  };
}

export function lostRecord(record: TaskRecord): TaskRecord {
  const error = taskError(
    kilnError('task_owner_lost', `The server instance running task ${record.taskId} stopped before it finished.`),
  );
  return { ...terminal(record, 'failed', error.message), error };
}
