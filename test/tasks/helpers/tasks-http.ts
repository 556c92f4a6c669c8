// A 2026-07-28 client of the Tasks extension over plain HTTP. The official SDK client refuses a tools/call answered
// with `resultType: "task"` (UNSUPPORTED_RESULT_TYPE), so calls go out as a client of the extension sends them: the
// per-request envelope declaring io.modelcontextprotocol/tasks, and the Mcp-Method / Mcp-Name routing headers.
import { ENVELOPE_VERSION, MCP_ACCEPT } from '../../http/helpers/http-server.js';
import { frameMessage, SseStream } from '../../http/helpers/sse-frames.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export interface RpcAnswer {
  readonly status: number;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string; data?: Record<string, unknown> };
}

export interface TasksHttpClient {
  request(method: string, params?: Record<string, unknown>): Promise<RpcAnswer>;
  /** The result, or a thrown Error naming the JSON-RPC error. */
  result(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** tasks/get until `done` accepts the task (terminal by default); throws after `timeoutMs`. */
  poll(
    endpoint: string | undefined,
    taskId: string,
    done?: (task: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
let nextId = 1;

/** A client of `endpoint`; `declares: false` leaves the extension out of its capabilities. */
export function tasksClient(
  endpoint: string,
  options: {
    readonly declares?: boolean;
    readonly capabilities?: Record<string, unknown>;
    /** Extra request headers, e.g. a bearer token. */
    readonly headers?: Record<string, string>;
  } = {},
): TasksHttpClient {
  const capabilities = clientCapabilities(options);
  const request = async (method: string, params: Record<string, unknown> = {}, at = endpoint) => {
    const name = method === 'tools/call' ? params.name : method.startsWith('tasks/') ? params.taskId : undefined;
    const response = await fetch(at, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': ENVELOPE_VERSION,
        'mcp-method': method,
        ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
        ...options.headers,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method,
        params: { ...params, _meta: envelope(capabilities) },
      }),
    });
    const text = await response.text();
    const body = JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}')) as RpcAnswer;
    return { status: response.status, result: body.result, error: body.error };
  };
  const result = async (method: string, params?: Record<string, unknown>, at = endpoint) => {
    const answer = await request(method, params, at);
    if (answer.error || !answer.result) throw new Error(`${method}: ${JSON.stringify(answer.error ?? answer)}`);
    return answer.result;
  };
  return {
    request: (method, params) => request(method, params),
    result: (method, params) => result(method, params),
    async poll(at, taskId, done = (task) => TERMINAL.has(String(task.status)), timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const task = await result('tasks/get', { taskId }, at ?? endpoint);
        if (done(task)) return task;
        if (Date.now() > deadline) throw new Error(`Task ${taskId} is still ${String(task.status)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

function clientCapabilities(options: { readonly declares?: boolean; readonly capabilities?: Record<string, unknown> }) {
  return {
    elicitation: {},
    ...options.capabilities,
    ...(options.declares === false ? {} : { extensions: { [TASKS_EXTENSION]: {} } }),
  };
}

function envelope(capabilities: Record<string, unknown>) {
  return {
    'io.modelcontextprotocol/protocolVersion': ENVELOPE_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'tasks-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

/** A raw subscriptions/listen answer: the stream, or the JSON-RPC error it was refused with. */
export type ListenAnswer =
  | { readonly stream: SseStream; readonly ack: Record<string, unknown> }
  | { readonly status: number; readonly error: { code: number; message: string; data?: Record<string, unknown> } };

/** Opens a 2026-07-28 listen stream with `notifications` (e.g. `{ taskIds }`); its acknowledgement is read. */
export async function listenForTasks(
  endpoint: string,
  notifications: Record<string, unknown>,
  options: { readonly declares?: boolean; readonly headers?: Record<string, string>; readonly id?: string } = {},
): Promise<ListenAnswer> {
  const abort = new AbortController();
  const method = 'subscriptions/listen';
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: MCP_ACCEPT,
      'mcp-protocol-version': ENVELOPE_VERSION,
      'mcp-method': method,
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: options.id ?? 'listen-tasks',
      method,
      params: { _meta: envelope(clientCapabilities(options)), notifications },
    }),
    signal: abort.signal,
  });
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const body = (await response.json()) as { error: { code: number; message: string } };
    return { status: response.status, error: body.error };
  }
  const stream = new SseStream(response, abort);
  const ack = frameMessage(await stream.next()) as unknown as Record<string, unknown>;
  return { stream, ack };
}
