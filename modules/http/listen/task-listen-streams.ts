// 2026-07-28 subscriptions/listen streams that name tasks (`notifications.taskIds`, the Tasks extension's status
// notifications). The SDK's listen router knows only its four filters, so a listen naming tasks is served here: the
// same acknowledgement, SSE frames, keep-alive and graceful close, the four filters honoured as the SDK honours them,
// plus notifications/tasks for the named tasks the caller owns. Every other listen stays with the SDK.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  SERVER_INFO_META_KEY,
  type ServerCapabilities,
  type ServerEvent,
  type ServerEventBus,
  SUBSCRIPTION_ID_META_KEY,
} from '@modelcontextprotocol/server';
import { JsonRpcErrorCode, type JsonRpcErrorObject, jsonRpcErrorResponse } from '../../../src/errors/index.js';
import { type AppPort, type DetailedTask, principalOf, type TaskWatch } from '../../../src/host/index.js';
import { eventTenant, taskStatusOf } from './tenant-events.js';

/** Task ids one listen may name; more is refused as invalid params. */
const MAX_TASK_IDS = 100;

interface ListenFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
  taskIds?: string[];
}

type ListenRequest = { readonly id: string | number; readonly params: Record<string, unknown> };

export class TaskListenStreams {
  private readonly open = new Set<(graceful: boolean) => void>();
  private capabilities: ServerCapabilities | undefined;
  private readonly servesTasks: boolean;

  constructor(
    private readonly app: AppPort,
    private readonly bus: ServerEventBus,
    private readonly keepAliveMs: number,
  ) {
    this.servesTasks = app.watchTasks(undefined) !== undefined;
  }

  /** True for a listen request naming taskIds on an app that serves tasks: this class serves it. */
  claims(body: unknown): body is ListenRequest {
    if (!isRecord(body) || (typeof body.id !== 'string' && typeof body.id !== 'number')) return false;
    const notifications = isRecord(body.params) ? body.params.notifications : undefined;
    return isRecord(notifications) && notifications.taskIds !== undefined && this.servesTasks;
  }

  async serve(req: IncomingMessage, res: ServerResponse, body: ListenRequest): Promise<void> {
    const watch = this.app.watchTasks(req.auth) as TaskWatch;
    const meta = isRecord(body.params._meta) ? body.params._meta : {};
    const refusal = watch.capabilityRefusal(meta[CLIENT_CAPABILITIES_META_KEY]);
    if (refusal) {
      return answerError(res, 400, body.id, { code: refusal.code, message: refusal.message, data: refusal.data });
    }
    const requested = parseFilter(body.params.notifications);
    if (typeof requested === 'string') {
      return answerError(res, 200, body.id, { code: JsonRpcErrorCode.InvalidParams, message: requested });
    }
    const tenantId = principalOf(req.auth).tenantId;
    // Subscribed before the tasks are read, so no change falls between the read and the stream; older ones are dropped.
    const early: ServerEvent[] = [];
    let deliver: (event: ServerEvent) => void = (event) => void early.push(event);
    const unsubscribe = this.bus.subscribe((event) => deliver(event));
    let snapshots: DetailedTask[];
    try {
      const ids = [...new Set(requested.taskIds ?? [])];
      snapshots = (await Promise.all(ids.map((id) => watch.snapshot(id)))).filter((task) => task !== undefined);
    } catch (error) {
      unsubscribe();
      throw error;
    }
    const honored = this.honored(requested, snapshots);
    const subscriptionId = body.id;
    const lastSeen = new Map<string, string>();
    const write = (frame: string) => void (res.writableEnded || res.write(frame));
    const send = (method: string, params: Record<string, unknown> = {}) =>
      write(message({ method, params: { ...params, _meta: { [SUBSCRIPTION_ID_META_KEY]: subscriptionId } } }));
    const sendTask = (task: DetailedTask) => {
      const last = lastSeen.get(task.taskId);
      if (last !== undefined && String(task.lastUpdatedAt) < last) return;
      lastSeen.set(task.taskId, String(task.lastUpdatedAt));
      send('notifications/tasks', task);
    };
    const watched = new Set(honored.taskIds);
    const onEvent = (event: ServerEvent) => {
      const change = taskStatusOf(event);
      if (change) {
        if (watched.has(change.task.taskId) && watch.concerns(change)) sendTask(change.task);
        return;
      }
      const scope = eventTenant(event);
      if ((scope === undefined || scope === tenantId) && accepts(honored, event)) {
        send(...notificationOf(event));
      }
    };

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    send('notifications/subscriptions/acknowledged', { notifications: honored });
    let closed = false;
    const keepAlive = this.keepAliveMs > 0 ? setInterval(() => write(': keepalive\n\n'), this.keepAliveMs) : undefined;
    keepAlive?.unref();
    const teardown = (graceful: boolean) => {
      if (closed) return;
      closed = true;
      unsubscribe();
      clearInterval(keepAlive);
      this.open.delete(teardown);
      if (graceful) {
        const _meta = { [SUBSCRIPTION_ID_META_KEY]: subscriptionId, [SERVER_INFO_META_KEY]: this.app.serverInfo };
        write(message({ id: subscriptionId, result: { resultType: 'complete', _meta } }));
      }
      res.end();
    };
    this.open.add(teardown);
    res.once('close', () => teardown(false));
    if (Object.keys(honored).length === 0) return teardown(true);
    for (const task of snapshots) sendTask(task);
    deliver = onEvent;
    for (const event of early) onEvent(event);
  }

  /** Shutdown: every stream gets its graceful end (the empty listen result). */
  closeAll(): void {
    for (const teardown of [...this.open]) teardown(true);
  }

  /** What the server agrees to send: the SDK's narrowing by capability, and the named tasks the caller owns. */
  private honored(requested: ListenFilter, tasks: readonly DetailedTask[]): ListenFilter {
    this.capabilities ??= this.app.createServer('envelope').getCapabilities();
    const { tools, prompts, resources } = this.capabilities;
    const honored: ListenFilter = {};
    if (requested.toolsListChanged && tools?.listChanged) honored.toolsListChanged = true;
    if (requested.promptsListChanged && prompts?.listChanged) honored.promptsListChanged = true;
    if (requested.resourcesListChanged && resources?.listChanged) honored.resourcesListChanged = true;
    if (requested.resourceSubscriptions?.length && resources?.subscribe) {
      honored.resourceSubscriptions = [...requested.resourceSubscriptions];
    }
    if (tasks.length > 0) honored.taskIds = tasks.map((task) => task.taskId);
    return honored;
  }
}

/** The filter, or why it is not one (the text of a -32602). */
function parseFilter(value: unknown): ListenFilter | string {
  const invalid = (what: string) => `Invalid params: notifications.${what}`;
  if (!isRecord(value)) return invalid('is required and must be an object');
  const filter: ListenFilter = {};
  for (const flag of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const) {
    if (value[flag] !== undefined && typeof value[flag] !== 'boolean') return invalid(`${flag} must be a boolean`);
    if (value[flag] === true) filter[flag] = true;
  }
  for (const list of ['resourceSubscriptions', 'taskIds'] as const) {
    const items = value[list];
    if (items === undefined) continue;
    if (!Array.isArray(items) || !items.every((item) => typeof item === 'string')) {
      return invalid(`${list} must be an array of strings`);
    }
    filter[list] = items;
  }
  if ((filter.taskIds?.length ?? 0) > MAX_TASK_IDS) return invalid(`taskIds names more than ${MAX_TASK_IDS} tasks`);
  return filter;
}

function accepts(filter: ListenFilter, event: ServerEvent): boolean {
  switch (event.kind) {
    case 'tools_list_changed':
      return filter.toolsListChanged === true;
    case 'prompts_list_changed':
      return filter.promptsListChanged === true;
    case 'resources_list_changed':
      return filter.resourcesListChanged === true;
    case 'resource_updated':
      return filter.resourceSubscriptions?.includes(event.uri) === true;
    default:
      return false;
  }
}

function notificationOf(event: ServerEvent): [string, Record<string, unknown>] {
  if (event.kind === 'resource_updated')
    return ['notifications/resources/updated', { ...event.params, uri: event.uri }];
  const method = {
    tools_list_changed: 'notifications/tools/list_changed',
    prompts_list_changed: 'notifications/prompts/list_changed',
    resources_list_changed: 'notifications/resources/list_changed',
  }[event.kind];
  return [method, { ...event.params }];
}

/** A refusal answered in place of the stream, as the SDK answers one (-32021 with 400, others in-band with 200). */
function answerError(res: ServerResponse, status: number, id: string | number, error: JsonRpcErrorObject): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(jsonRpcErrorResponse(id, error)));
}

function message(fields: Record<string, unknown>): string {
  return `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...fields })}\n\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
