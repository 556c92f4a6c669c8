// Tasks any instance can serve: two real Kiln processes (the everything example) on one Redis, with a short task
// lease. A task started on A is polled, cancelled and collected on B; input asked on A is answered on B, which runs
// the next round itself; a round-robin proxy with no stickiness serves a whole task; and when the instance running a
// task is killed, the next reader reports it failed (task_owner_lost), while a task parked on input carries on from
// the other instance; a listen stream on B hears the status changes of a task on A (notifications/tasks over the
// Redis bus). The processes are shared by every case; the last one kills an instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameMessage } from '../http/helpers/sse-frames.js';
import { EVERYTHING_SERVER } from '../integration/helpers/built-servers.js';
import type { KilnProcess } from '../support/kiln-process.js';
import { type KilnRedisCluster, startKilnRedisCluster } from '../support/kiln-redis-cluster.js';
import { listenForTasks, tasksClient } from '../tasks/helpers/tasks-http.js';

const LEASE_MS = 1500;

let cluster: KilnRedisCluster;
let a: KilnProcess;
let b: KilnProcess;

beforeAll(async () => {
  cluster = await startKilnRedisCluster({
    keyPrefix: 'tasks-test',
    resumability: false,
    script: EVERYTHING_SERVER,
    env: { MCP_TASKS_LEASE_MS: String(LEASE_MS), MCP_LOG_LEVEL: 'warning' },
  });
  [a, b] = cluster.instances as [KilnProcess, KilnProcess];
});

afterAll(async () => {
  await cluster?.stop();
});

const on = (instance: KilnProcess) => tasksClient(instance.endpoint);

describe('notifications/tasks across instances', () => {
  it('reach a listen stream on B for a task running on A, through the Redis bus, without polling', async () => {
    const created = await on(a).result('tools/call', { name: 'confirm_delete', arguments: { filename: 'n.txt' } });
    const taskId = String(created.taskId);
    const answer = await listenForTasks(b.endpoint, { taskIds: [taskId] });
    if (!('stream' in answer)) throw new Error(`The listen was refused: ${JSON.stringify(answer)}`);
    const { stream } = answer;
    try {
      expect(answer.ack).toMatchObject({ params: { notifications: { taskIds: [taskId] } } });
      const seen: string[] = [];
      const next = async () => {
        const note = frameMessage(await stream.next(10_000)) as unknown as { params: { status: string } };
        seen.push(note.params.status);
        return note.params.status;
      };
      while ((await next()) !== 'input_required') {}
      await on(a).result('tasks/update', {
        taskId,
        inputResponses: { confirm: { action: 'accept', content: { confirm: false } } },
      });
      while ((await next()) !== 'completed') {}
      expect(seen.slice(-2)).toEqual(['working', 'completed']);
    } finally {
      stream.close();
    }
  });
});

describe('a task started on one instance', () => {
  it('is polled and cancelled on the other, which sees it cancelled once the runner notices', async () => {
    const created = await on(a).result('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
    const taskId = String(created.taskId);
    expect(await on(b).result('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });

    expect(await on(b).result('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
    // A looks for cancellations each third of its lease.
    const cancelled = await on(b).poll(undefined, taskId, undefined, 4 * LEASE_MS);
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(await on(a).result('tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
  });

  it('asks for input on A; answered on B, B runs the next round and both see the result', async () => {
    const created = await on(a).result('tools/call', { name: 'confirm_delete', arguments: { filename: 'a.txt' } });
    const taskId = String(created.taskId);
    const parked = await on(b).poll(undefined, taskId, (task) => task.status === 'input_required');
    expect(Object.keys(parked.inputRequests as object)).toEqual(['confirm']);

    await on(b).result('tasks/update', {
      taskId,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    const done = await on(a).poll(undefined, taskId);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Deleted a.txt.' }] },
    });
  });

  it('is served whole through a round-robin proxy with no stickiness', async () => {
    const proxied = tasksClient(cluster.proxy.endpoint);
    const created = await proxied.result('tools/call', {
      name: 'slow_compute',
      arguments: { seconds: 1, label: 'rr' },
    });
    const done = await proxied.poll(undefined, String(created.taskId));
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'Computed rr in 1 s.' }] } });
  });

  it('is reported failed (task_owner_lost) once its instance dies; a task parked on input goes on from the other', async () => {
    const running = await on(a).result('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
    const parkedTask = await on(a).result('tools/call', { name: 'confirm_delete', arguments: { filename: 'b.txt' } });
    await on(b).poll(undefined, String(parkedTask.taskId), (task) => task.status === 'input_required');

    await a.kill();

    // Reported once the lease lapses (1.5 s of silence); the wait is generous for a loaded machine, and still far short
    // of the 60 s the task would run if nobody noticed its instance was gone.
    const lost = await on(b).poll(undefined, String(running.taskId), undefined, 20 * LEASE_MS);
    expect(lost).toMatchObject({
      status: 'failed',
      error: { code: -32603, data: { reason: 'task_owner_lost' } },
    });
    expect(lost.statusMessage).toMatch(/stopped before it finished/);

    await on(b).result('tasks/update', {
      taskId: String(parkedTask.taskId),
      inputResponses: { confirm: { action: 'accept', content: { confirm: false } } },
    });
    const done = await on(b).poll(undefined, String(parkedTask.taskId));
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'Kept b.txt.' }] } });
  });
});
