// What the Redis change-event bus sends: a change event tagged with the publishing instance, so each instance can
// drop its own (it delivered them in-process already), or a probe an instance sends itself to prove that its
// subscription is live again. Incoming text is checked before it becomes an event.
import type { ServerEvent } from '@modelcontextprotocol/server';
import { changeEventIdOf, withChangeEventId } from '../../src/host/index.js';

export type BusMessage =
  | { readonly from: string; readonly event: ServerEvent }
  | { readonly from: string; readonly probe: true };

const LIST_KINDS = new Set(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed']);

export const encodeEvent = (from: string, event: ServerEvent): string => JSON.stringify({ from, event });
export const encodeProbe = (from: string): string => JSON.stringify({ from, probe: true });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The message rebuilt from known fields only, or undefined when the text is not a message of this bus. */
export function decodeBusMessage(text: string): BusMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed.from !== 'string') return undefined;
  if (parsed.probe === true) return { from: parsed.from, probe: true };
  const event = isRecord(parsed.event) ? decodeEvent(parsed.event) : undefined;
  return event ? { from: parsed.from, event } : undefined;
}

function decodeEvent(fields: Record<string, unknown>): ServerEvent | undefined {
  const event = decodeKnownEvent(fields);
  const id = changeEventIdOf(fields);
  return event && id !== undefined ? withChangeEventId(event, id) : event;
}

function decodeKnownEvent({
  kind,
  uri,
  params,
  tenantId,
  owner,
  task,
}: Record<string, unknown>): ServerEvent | undefined {
  // A task's status change (notifications/tasks): its tenant, owner and DetailedTask, all required.
  if (kind === 'task_status') {
    const valid = typeof tenantId === 'string' && typeof owner === 'string' && isRecord(task);
    if (!valid || typeof task.taskId !== 'string' || typeof task.status !== 'string') return undefined;
    return { kind, tenantId, owner, task } as unknown as ServerEvent;
  }
  // The tenant a resource event is scoped to travels with it, so another instance delivers it to that tenant only.
  const extra = {
    ...(isRecord(params) ? { params: params as ServerEvent['params'] } : {}),
    ...(typeof tenantId === 'string' ? { tenantId } : {}),
  };
  if (typeof kind === 'string' && LIST_KINDS.has(kind)) return { kind, ...extra } as ServerEvent;
  if (kind === 'resource_updated' && typeof uri === 'string') return { kind, uri, ...extra };
  return undefined;
}
