// Change events on the bus with the tenant they concern, and per-tenant views of the bus, so that what a request of
// tenant A changed reaches tenant A's 2026-07-28 listen streams and nobody else's. The SDK's listen router delivers
// every event of the bus it is given to every stream, so each tenant's streams are served from a view of the bus
// that passes only that tenant's events and the unscoped ones (tool and prompt lists, background publishers).
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { ChangeSink, TaskStatusChange } from '../../../src/host/index.js';

/** A bus event, with the tenant it is scoped to when a request of that tenant published it. */
export type TenantScopedEvent = ServerEvent & { readonly tenantId?: string };

/**
 * A task's status change on the bus (Kiln's own kind; the SDK's listen router and 2025 sessions pass it by). Always
 * scoped to its tenant, and further to the caller that owns the task.
 */
export type TaskStatusEvent = TaskStatusChange & { readonly kind: 'task_status' };

/** The task status change an event carries; undefined for every other event. */
export function taskStatusOf(event: ServerEvent): TaskStatusChange | undefined {
  const candidate = event as unknown as Partial<TaskStatusEvent>;
  return candidate.kind === 'task_status' ? (candidate as TaskStatusEvent) : undefined;
}

/** The tenant an event is scoped to; undefined for an event every client hears. */
export function eventTenant(event: ServerEvent): string | undefined {
  const { tenantId } = event as TenantScopedEvent;
  return typeof tenantId === 'string' ? tenantId : undefined;
}

/** The app's change events published on `bus`, resource events tagged with their tenant. */
export function publishOn(bus: ServerEventBus): ChangeSink {
  const scoped = (event: ServerEvent, tenantId: string | undefined): ServerEvent =>
    tenantId === undefined ? event : ({ ...event, tenantId } as TenantScopedEvent);
  return {
    toolsChanged: () => bus.publish({ kind: 'tools_list_changed' }),
    promptsChanged: () => bus.publish({ kind: 'prompts_list_changed' }),
    resourcesChanged: (tenantId) => bus.publish(scoped({ kind: 'resources_list_changed' }, tenantId)),
    resourceUpdated: (uri, tenantId) => bus.publish(scoped({ kind: 'resource_updated', uri }, tenantId)),
    taskStatus: (change) =>
      bus.publish({ kind: 'task_status', ...change } as TaskStatusEvent as unknown as ServerEvent),
  };
}

/** `bus` as one tenant's clients see it (a client without a tenant sees only unscoped events). */
export function tenantView(bus: ServerEventBus, tenantId: string | undefined): ServerEventBus {
  return {
    publish: (event) => bus.publish(event),
    subscribe: (listener) =>
      bus.subscribe((event) => {
        const scope = eventTenant(event);
        if (scope === undefined || scope === tenantId) listener(event);
      }),
  };
}
