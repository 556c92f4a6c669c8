// The Tasks extension's status notifications over real HTTP: a raw 2026-07-28 subscriptions/listen naming taskIds gets
// the acknowledgement with the tasks it agreed to, the task as it stands, then notifications/tasks for each change of
// status (working → input_required → working → completed, failed, cancelled) with no tasks/get in between; the -32021
// and -32602 refusals; and, under auth, a listener never hears of another tenant's or another caller's task.
import { authFromEnv } from 'mcp-kiln/auth';
import { startTestIssuer, type TestIssuer } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EverythingModule } from '../../examples/everything/everything.module.js';
import { bearer, RESOURCE } from '../http/helpers/auth-server.js';
import { type RunningServer, startHttpServer } from '../http/helpers/http-server.js';
import { frameMessage, type SseStream } from '../http/helpers/sse-frames.js';
import { type ListenAnswer, listenForTasks, TASKS_EXTENSION, tasksClient } from './helpers/tasks-http.js';

const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const streams: SseStream[] = [];

type Note = { method?: string; params: Record<string, unknown> & { _meta?: Record<string, unknown> } };

function opened(answer: ListenAnswer): { stream: SseStream; ack: Record<string, unknown> } {
  if (!('stream' in answer)) throw new Error(`The listen was refused: ${JSON.stringify(answer)}`);
  streams.push(answer.stream);
  return answer;
}

/** notifications/tasks frames until the task's status is `until` (terminal by default). */
async function statusesUntil(stream: SseStream, until = (status: string) => TERMINAL.has(status)): Promise<Note[]> {
  const notes: Note[] = [];
  for (;;) {
    const note = frameMessage(await stream.next(10_000)) as unknown as Note;
    notes.push(note);
    if (note.method === 'notifications/tasks' && until(String(note.params.status))) return notes;
  }
}

const statuses = (notes: readonly Note[]) => notes.map((note) => note.params.status);

afterAll(() => {
  for (const stream of streams) stream.close();
});

describe('notifications/tasks on an open endpoint', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer({ MCP_LOG_LEVEL: 'error' }, {}, EverythingModule);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('follows a task through input_required to completed without polling', async () => {
    const client = tasksClient(server.endpoint);
    const created = await client.result('tools/call', { name: 'confirm_delete', arguments: { filename: 'a.txt' } });
    const taskId = String(created.taskId);
    const { stream, ack } = opened(await listenForTasks(server.endpoint, { taskIds: [taskId, 'not-a-task'] }));
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] }, _meta: { [SUBSCRIPTION]: 'listen-tasks' } },
    });

    const parked = await statusesUntil(stream, (status) => status === 'input_required');
    const asked = parked.at(-1) as Note;
    expect(asked).toMatchObject({
      method: 'notifications/tasks',
      params: { taskId, _meta: { [SUBSCRIPTION]: 'listen-tasks' } },
    });
    for (const field of ['createdAt', 'lastUpdatedAt', 'ttlMs', 'pollIntervalMs'])
      expect(asked.params).toHaveProperty(field);
    expect(Object.keys(asked.params.inputRequests as object)).toEqual(['confirm']);

    await client.result('tasks/update', {
      taskId,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    const rest = await statusesUntil(stream);
    expect(statuses(rest)).toEqual(['working', 'completed']);
    expect(rest.at(-1)?.params).toMatchObject({ result: { content: [{ type: 'text', text: 'Deleted a.txt.' }] } });
  });

  it('inlines the error of a failed task and reports a cancellation', async () => {
    const client = tasksClient(server.endpoint);
    const crashing = String((await client.result('tools/call', { name: 'protocol_error_job', arguments: {} })).taskId);
    const slow = String(
      (await client.result('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } })).taskId,
    );
    const { stream, ack } = opened(await listenForTasks(server.endpoint, { taskIds: [crashing, slow] }));
    expect((ack.params as Note['params']).notifications).toEqual({ taskIds: [crashing, slow] });

    const seen = new Map<string, Note>();
    while (seen.get(crashing)?.params.status !== 'failed') {
      const note = frameMessage(await stream.next(10_000)) as unknown as Note;
      seen.set(String(note.params.taskId), note);
    }
    expect(seen.get(crashing)?.params).toMatchObject({ error: { code: -32603, data: { reason: 'task_failed' } } });
    await client.result('tasks/cancel', { taskId: slow });
    for (;;) {
      const note = frameMessage(await stream.next(10_000)) as unknown as Note;
      if (note.params.taskId === slow && note.params.status === 'cancelled') break;
    }
  });

  it('keeps the other filters on the same stream, and ends at once when none of it can be honoured', async () => {
    const { stream, ack } = opened(
      await listenForTasks(server.endpoint, { taskIds: ['no-such-task'], toolsListChanged: true }),
    );
    expect((ack.params as Note['params']).notifications).toEqual({ toolsListChanged: true });
    server.app.runtime.notifier.toolsChanged();
    expect(frameMessage(await stream.next())).toMatchObject({ method: 'notifications/tools/list_changed' });

    const empty = opened(await listenForTasks(server.endpoint, { taskIds: ['no-such-task'] }, { id: 'empty' }));
    expect((empty.ack.params as Note['params']).notifications).toEqual({});
    expect(frameMessage(await empty.stream.next())).toMatchObject({ id: 'empty', result: { resultType: 'complete' } });
  });

  it('refuses a client without the extension with -32021, and a malformed taskIds with -32602', async () => {
    const refused = await listenForTasks(server.endpoint, { taskIds: ['x'] }, { declares: false });
    expect(refused).toMatchObject({
      status: 400,
      error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } },
    });
    const malformed = await listenForTasks(server.endpoint, { taskIds: 'x' });
    expect(malformed).toMatchObject({ error: { code: -32602 } });
  });
});

describe('notifications/tasks under auth', () => {
  let issuer: TestIssuer;
  let server: RunningServer;
  beforeAll(async () => {
    issuer = await startTestIssuer({ audience: RESOURCE });
    const env = { MCP_LOG_LEVEL: 'error', ...issuer.oauthEnv(RESOURCE) };
    const auth = authFromEnv({ MCP_TRANSPORT_TYPE: 'http', ...env });
    server = await startHttpServer(env, auth ? { auth } : {}, EverythingModule);
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
  });

  const as = async (sub: string, tenant: string) => bearer(await issuer.mintToken({ sub, tenant }));

  it('tells only the caller that owns the task: not another tenant, not another caller of the same tenant', async () => {
    const alice = await as('alice', 'tenant-a');
    const client = tasksClient(server.endpoint, { headers: alice });
    const created = await client.result('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
    const taskId = String(created.taskId);

    for (const [sub, tenant] of [
      ['bob', 'tenant-b'],
      ['carol', 'tenant-a'],
    ] as const) {
      const other = opened(
        await listenForTasks(server.endpoint, { taskIds: [taskId] }, { headers: await as(sub, tenant), id: sub }),
      );
      expect((other.ack.params as Note['params']).notifications).toEqual({});
      expect(frameMessage(await other.stream.next())).toMatchObject({ id: sub, result: { resultType: 'complete' } });
    }
    // Bob's stream that also watches the tool list stays open, and hears nothing of Alice's task.
    const bob = opened(
      await listenForTasks(
        server.endpoint,
        { taskIds: [taskId], toolsListChanged: true },
        { headers: await as('bob', 'tenant-b'), id: 'bob-open' },
      ),
    );
    const mine = opened(await listenForTasks(server.endpoint, { taskIds: [taskId] }, { headers: alice }));
    expect((mine.ack.params as Note['params']).notifications).toEqual({ taskIds: [taskId] });

    await client.result('tasks/cancel', { taskId });
    expect(statuses(await statusesUntil(mine.stream))).toEqual(['working', 'cancelled']);
    server.app.runtime.notifier.toolsChanged();
    // The first thing Bob's stream carries after the cancellation is the tool list change, not Alice's task.
    expect(frameMessage(await bob.stream.next())).toMatchObject({ method: 'notifications/tools/list_changed' });
  });
});
