// Delivers change notifications through one protocol Server: a stdio connection, or a live 2025 HTTP session. On
// the 2025 era a resource update goes only to a client that subscribed to that URI (resources/subscribe); a resource
// event scoped to a tenant reaches only a server whose client runs as that tenant.
import type { Server } from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../context/context.js';
import { CHANGE_EVENT_ID_META, type ChangeSink } from '../notifications/change-notifier.js';

const subscriptionsByServer = new WeakMap<Server, Set<string>>();

/** The URIs a 2025-era client subscribed to on this server (its connection or session). */
export function resourceSubscriptions(server: Server): Set<string> {
  let subscriptions = subscriptionsByServer.get(server);
  if (!subscriptions) {
    subscriptions = new Set();
    subscriptionsByServer.set(server, subscriptions);
  }
  return subscriptions;
}

/** Installs idempotent resources/subscribe and resources/unsubscribe handlers on a 2025-era server. */
export function serveResourceSubscriptions(server: Server): void {
  const subscriptions = resourceSubscriptions(server);
  server.setRequestHandler('resources/subscribe', (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
}

/** Who a protocol server's client runs as, for scoping resource events. */
export interface SinkClient {
  /** The client's tenant; undefined for an authenticated client whose token names none (it hears unscoped events). */
  readonly tenantId: string | undefined;
}

/**
 * Without `client` (a host that does not know who its client is) the server hears every event. With it, a resource
 * event scoped to another tenant is dropped here, before anything reaches the wire.
 */
export function serverSink(server: Server, era: ProtocolEra, client?: SinkClient): ChangeSink {
  const ignore = () => undefined;
  const hears = (eventTenant: string | undefined) =>
    client === undefined || eventTenant === undefined || eventTenant === client.tenantId;
  // An event named across instances goes out through the generic notification, with its id in _meta.
  const listChanged = (method: string, eventId: string) =>
    void server.notification({ method, params: { _meta: { [CHANGE_EVENT_ID_META]: eventId } } } as never).catch(ignore);
  return {
    toolsChanged: (eventId) =>
      eventId === undefined
        ? void server.sendToolListChanged().catch(ignore)
        : listChanged('notifications/tools/list_changed', eventId),
    promptsChanged: (eventId) =>
      eventId === undefined
        ? void server.sendPromptListChanged().catch(ignore)
        : listChanged('notifications/prompts/list_changed', eventId),
    resourcesChanged: (eventTenant, eventId) => {
      if (!hears(eventTenant)) return;
      if (eventId === undefined) void server.sendResourceListChanged().catch(ignore);
      else listChanged('notifications/resources/list_changed', eventId);
    },
    resourceUpdated: (uri, eventTenant, eventId) => {
      // On 2026-07-28 the SDK's listen router filters by the stream's resourceSubscriptions.
      if (hears(eventTenant) && (era === 'envelope' || resourceSubscriptions(server).has(uri))) {
        const meta = eventId === undefined ? {} : { _meta: { [CHANGE_EVENT_ID_META]: eventId } };
        void server.sendResourceUpdated({ uri, ...meta }).catch(ignore);
      }
    },
  };
}
