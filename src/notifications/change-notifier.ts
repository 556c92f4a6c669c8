// The app's one channel for list-changed and resource-updated notifications, in and out of requests. Transports
// attach sinks (each stdio connection, the HTTP bus and its live 2025 sessions); publishing fans out to all of them.
// Resource events may name a tenant: what a request of tenant A changed is news for tenant A's clients only. The
// tool and prompt lists are the same for every tenant, so their events never name one. A task's status changes
// (the Tasks extension's notifications/tasks) always name the tenant and the caller that owns the task.

/** A task's new status, as the DetailedTask tasks/get would answer at that moment. */
export interface TaskStatusChange {
  readonly tenantId: string;
  /** The principal the task is bound to (principalKeyOf): only that caller may hear of it. */
  readonly owner: string;
  readonly task: Readonly<Record<string, unknown>> & { readonly taskId: string; readonly status: string };
}

/**
 * The `_meta` key under which a change event's id (given by a bus that spans instances) rides on the notification:
 * where several instances store the same event for one 2025 session, the session's event store keeps it once.
 */
export const CHANGE_EVENT_ID_META = 'mcp-kiln/event';

const EVENT_ID = 'kilnEventId';

/** The id a bus spanning instances gave the event (the same on every instance), if any. */
export function changeEventIdOf(event: object): string | undefined {
  const id = (event as Record<string, unknown>)[EVENT_ID];
  return typeof id === 'string' ? id : undefined;
}

/** The event with `id`, as such a bus hands it to each instance's listeners. */
export function withChangeEventId<E extends object>(event: E, id: string): E {
  return { ...event, [EVENT_ID]: id };
}

export interface ChangeSink {
  /** `eventId`, when given, names the change event across instances (see CHANGE_EVENT_ID_META). */
  toolsChanged(eventId?: string): void;
  promptsChanged(eventId?: string): void;
  /** `tenantId` scopes the event to one tenant's clients; omitted, every client hears it. */
  resourcesChanged(tenantId?: string, eventId?: string): void;
  /** `tenantId` scopes the event to one tenant's clients; omitted, every client hears it. */
  resourceUpdated(uri: string, tenantId?: string, eventId?: string): void;
  /** Optional: a sink without it (stdio, 2025 sessions) does not carry task status notifications. */
  taskStatus?(change: TaskStatusChange): void;
}

export class ChangeNotifier implements ChangeSink {
  private readonly sinks = new Set<ChangeSink>();

  /** Adds a sink; returns the function that removes it. */
  attach(sink: ChangeSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  // Arrow properties: handlers receive these as detached functions (ctx.notifyToolListChanged).
  readonly toolsChanged = (): void => this.each((sink) => sink.toolsChanged());
  readonly promptsChanged = (): void => this.each((sink) => sink.promptsChanged());
  readonly resourcesChanged = (tenantId?: string): void => this.each((sink) => sink.resourcesChanged(tenantId));
  readonly resourceUpdated = (uri: string, tenantId?: string): void =>
    this.each((sink) => sink.resourceUpdated(uri, tenantId));
  readonly taskStatus = (change: TaskStatusChange): void => this.each((sink) => sink.taskStatus?.(change));

  // A failing sink (a closed connection) must not keep the others from hearing about the change.
  private each(deliver: (sink: ChangeSink) => void): void {
    for (const sink of this.sinks) {
      try {
        deliver(sink);
      } catch {
        // Delivery is fire-and-forget, like every notification.
      }
    }
  }
}
