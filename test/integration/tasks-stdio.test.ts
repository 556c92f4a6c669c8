// The Tasks extension over stdio (a real process, raw 2026-07-28 lines): the same task tools, answered with a task
// and polled with tasks/get to their result, input answered with tasks/update; the task machinery is the protocol
// server's, so every transport gets it.
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER } from './helpers/built-servers.js';
import { type RawStdioServer, spawnRawServer } from './helpers/raw-stdio-server.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'tasks-stdio', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: {},
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

let server: RawStdioServer | undefined;
let nextId = 1;

afterEach(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
});

async function request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const id = nextId++;
  server?.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });
  const answer = (await server?.response(id)) as { result?: Record<string, unknown>; error?: unknown };
  if (!answer.result) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}

async function until(taskId: unknown, status: string): Promise<Record<string, unknown>> {
  for (;;) {
    const task = await request('tasks/get', { taskId });
    if (task.status === status) return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('tasks over stdio', () => {
  it('answers with a task, asks for input inside it, and completes once tasks/update answers', async () => {
    server = spawnRawServer(EVERYTHING_SERVER, { MCP_TRANSPORT_TYPE: 'stdio', MCP_LOG_LEVEL: 'error' });
    const computed = await request('tools/call', { name: 'slow_compute', arguments: { seconds: 0.25, label: 'io' } });
    expect(computed).toMatchObject({ resultType: 'task', status: 'working' });
    expect(await until(computed.taskId, 'completed')).toMatchObject({
      result: { content: [{ type: 'text', text: 'Computed io in 0.25 s.' }] },
    });

    const asked = await request('tools/call', { name: 'confirm_delete', arguments: { filename: 'x.txt' } });
    const parked = await until(asked.taskId, 'input_required');
    expect(Object.keys(parked.inputRequests as object)).toEqual(['confirm']);
    await request('tasks/update', {
      taskId: asked.taskId,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    expect(await until(asked.taskId, 'completed')).toMatchObject({ result: { content: [{ text: 'Deleted x.txt.' }] } });
  });
});
