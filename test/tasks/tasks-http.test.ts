// The Tasks extension end to end over real HTTP, against the everything example's task fixtures: a task created,
// polled and collected; input asked inside a task and answered through tasks/update, one key at a time; cancellation;
// the -32021 refusals without the extension; the MRTR-then-task composition; and the same tools on the 2025 wire
// (official SDK client), where no task exists and they run as ordinary calls.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EverythingModule } from '../../examples/everything/everything.module.js';
import { claimEnvelopeRequest } from '../../modules/http/fast-path/edge-claim.js';
import { connectClient, type RunningServer, startHttpServer } from '../http/helpers/http-server.js';
import { TASKS_EXTENSION, type TasksHttpClient, tasksClient } from './helpers/tasks-http.js';

let server: RunningServer;
let client: TasksHttpClient;

beforeAll(async () => {
  server = await startHttpServer({ MCP_LOG_LEVEL: 'error', MCP_TASKS_POLL_INTERVAL_MS: '200' }, {}, EverythingModule);
  client = tasksClient(server.endpoint);
});

afterAll(async () => {
  await server?.close();
});

const TASK_FIELDS = ['taskId', 'status', 'createdAt', 'lastUpdatedAt', 'ttlMs', 'pollIntervalMs'];

describe('a task tool called by a client that declares the extension', () => {
  it('answers with a flat CreateTaskResult, then tasks/get shows it working and finally completed with the result', async () => {
    const created = await client.result('tools/call', {
      name: 'slow_compute',
      arguments: { seconds: 0.5, label: 'x' },
    });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 200 });
    for (const field of TASK_FIELDS) expect(created).toHaveProperty(field);
    expect(created).not.toHaveProperty('result');
    expect(created).not.toHaveProperty('requestState');

    const taskId = String(created.taskId);
    const working = await client.result('tasks/get', { taskId });
    expect(working).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
    const done = await client.poll(undefined, taskId);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Computed x in 0.5 s.' }] },
    });
  });

  it('reports progress as the status message while the task works', async () => {
    const created = await client.result('tools/call', { name: 'slow_compute', arguments: { seconds: 2 } });
    const task = await client.poll(undefined, String(created.taskId), (t) =>
      /Computing result: [1-9]/.test(String(t.statusMessage)),
    );
    expect(task.status).toBe('working');
    await client.result('tasks/cancel', { taskId: String(created.taskId) });
  });

  it('keeps a tool error as completed with isError, and a crash as failed with a JSON-RPC error', async () => {
    const failing = await client.result('tools/call', { name: 'failing_job', arguments: {} });
    const toolError = await client.poll(undefined, String(failing.taskId));
    expect(toolError).toMatchObject({ status: 'completed', result: { isError: true } });

    const crashing = await client.result('tools/call', { name: 'protocol_error_job', arguments: {} });
    const crashed = await client.poll(undefined, String(crashing.taskId));
    expect(crashed).toMatchObject({ status: 'failed', error: { code: -32603, data: { reason: 'task_failed' } } });
    expect(crashed).not.toHaveProperty('result');
  });

  it('cancels a running task (an empty ack), and acks a cancel of an ended task the same way', async () => {
    const created = await client.result('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
    const taskId = String(created.taskId);
    const ack = await client.result('tasks/cancel', { taskId });
    expect(Object.keys(ack).filter((key) => key !== '_meta')).toEqual(['resultType']);
    expect(await client.result('tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
    expect(await client.result('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
  });

  it('parks on input: tasks/get lists the requests, a partial tasks/update keeps the rest pending, the last resumes it', async () => {
    const created = await client.result('tools/call', { name: 'multi_input', arguments: {} });
    const taskId = String(created.taskId);
    const parked = await client.poll(undefined, taskId, (t) => t.status === 'input_required');
    const requests = parked.inputRequests as Record<string, { method: string }>;
    expect(Object.keys(requests).sort()).toEqual(['first', 'second']);
    expect(requests.first?.method).toBe('elicitation/create');

    const partial = await client.result('tasks/update', {
      taskId,
      inputResponses: { first: { action: 'accept', content: { name: 'Ada' } }, never_asked: { action: 'decline' } },
    });
    expect(partial).not.toHaveProperty('status');
    const waiting = await client.result('tasks/get', { taskId });
    expect(waiting).toMatchObject({ status: 'input_required' });
    expect(Object.keys(waiting.inputRequests as object)).toEqual(['second']);

    await client.result('tasks/update', { taskId, inputResponses: { second: { action: 'decline' } } });
    const done = await client.poll(undefined, taskId);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Answers: first accept, second decline.' }] },
    });
  });

  it('answers unknown task ids -32602 and the removed tasks/result and tasks/list -32601', async () => {
    const unknown = await client.request('tasks/get', { taskId: 'no-such-task' });
    expect(unknown.error).toMatchObject({ code: -32602, data: { reason: 'unknown_task' } });
    expect((await client.request('tasks/result', { taskId: 'no-such-task' })).error?.code).toBe(-32601);
    expect((await client.request('tasks/list', {})).error?.code).toBe(-32601);
  });

  it('gathers input in ordinary rounds first, then answers with the task the handler started (start: handler)', async () => {
    const first = await client.result('tools/call', { name: 'test_tool_with_task', arguments: {} });
    expect(first).toMatchObject({ resultType: 'input_required' });
    expect(first).not.toHaveProperty('taskId');
    const second = await client.result('tools/call', {
      name: 'test_tool_with_task',
      arguments: {},
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
    });
    expect(second).toMatchObject({ resultType: 'task', statusMessage: 'Preparing the greeting.' });
    expect(second).not.toHaveProperty('requestState');
    const done = await client.poll(undefined, String(second.taskId));
    expect(done).toMatchObject({ status: 'completed' });
    expect(JSON.stringify(done.result)).toContain(`Hello, Alice! (from task ${String(second.taskId)})`);
  });
});

describe('without the extension', () => {
  const plain = () => tasksClient(server.endpoint, { declares: false });

  it('runs an optional task tool as an ordinary call and refuses a required one with -32021 naming the extension', async () => {
    const sync = await plain().result('tools/call', { name: 'slow_compute', arguments: { seconds: 0 } });
    expect(sync).toMatchObject({ resultType: 'complete', content: [{ type: 'text' }] });
    expect(sync).not.toHaveProperty('taskId');

    const refused = await plain().request('tools/call', { name: 'failing_job', arguments: {} });
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { reason: 'task_capability_missing', requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
  });

  it('refuses tasks/get, tasks/update and tasks/cancel with -32021', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const answer = await plain().request(method, { taskId: 'anything', inputResponses: {} });
      expect(answer.error?.code, method).toBe(-32021);
    }
  });

  it('on the 2025 wire (official SDK client), where the extension does not exist, task tools are ordinary calls', async () => {
    const { client: handshake } = await connectClient(server.endpoint, 'handshake');
    try {
      // A 2026-07-28 extension: a 2025 client is told neither of it nor of the 2025 tasks capability.
      const capabilities = handshake.getServerCapabilities() as { extensions?: Record<string, unknown> };
      expect(capabilities).not.toHaveProperty('tasks');
      expect(capabilities.extensions).not.toHaveProperty(TASKS_EXTENSION);
      const result = await handshake.callTool({ name: 'failing_job', arguments: {} });
      expect(result.isError).toBe(true);
      const composed = await handshake.callTool({
        name: 'slow_compute',
        arguments: { seconds: 0, label: 'handshake' },
      });
      expect(composed.content).toEqual([{ type: 'text', text: 'Computed handshake in 0 s.' }]);
    } finally {
      await handshake.close();
    }
  });

  it('the official 2026-07-28 SDK client sees the extension in server/discover and reads tasks with tasks/get', async () => {
    const created = await client.result('tools/call', { name: 'slow_compute', arguments: { seconds: 0 } });
    const { client: envelope } = await connectClient(server.endpoint, 'envelope');
    try {
      const extensions = (envelope.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions;
      expect(extensions?.[TASKS_EXTENSION]).toEqual({});
      // The client sends its own capabilities, which do not declare the extension: refused as such.
      await expect(
        envelope.request(
          { method: 'tasks/get', params: { taskId: String(created.taskId) } },
          z.object({}).passthrough(),
        ),
      ).rejects.toMatchObject({ code: -32021 });
    } finally {
      await envelope.close();
    }
  });
});

describe('the HTTP fast path', () => {
  it('serves a task tool’s tools/call and leaves tasks/* to the SDK path; with it off, tasks work the same', async () => {
    const headers = (method: string, name: string) => ({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': name,
    });
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    const body = (method: string, params: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...params, _meta: envelope },
    });
    expect(
      claimEnvelopeRequest(body('tools/call', { name: 'slow_compute' }), headers('tools/call', 'slow_compute')),
    ).toBeDefined();
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect(claimEnvelopeRequest(body(method, { taskId: 't' }), headers(method, 't')), method).toBeUndefined();
    }

    const slow = await startHttpServer({ MCP_LOG_LEVEL: 'error', MCP_HTTP_FAST_PATH: 'off' }, {}, EverythingModule);
    try {
      const sdkPath = tasksClient(slow.endpoint);
      const created = await sdkPath.result('tools/call', { name: 'slow_compute', arguments: { seconds: 0 } });
      expect(await sdkPath.poll(undefined, String(created.taskId))).toMatchObject({ status: 'completed' });
    } finally {
      await slow.close();
    }
  });
});
