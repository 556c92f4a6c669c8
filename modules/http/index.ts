// modules/http: serve a Kiln app over Streamable HTTP (both protocol eras) with Fastify.
export { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';
export { type HttpHostOptions, type HttpServing, http } from './http-host.js';
export { type KilnFastifyOptions, kilnFastify } from './kiln-fastify.js';
export { type LandingPageModel, type LandingProtection, landingPageModel } from './landing-page/model.js';
export { eventTenant, type TenantScopedEvent } from './listen/tenant-events.js';
export { type NodeHandler, type NodeHandlerOptions, nodeHandler } from './node-handler.js';
export {
  InMemorySessionEventStore,
  isPrimingEvent,
  type SessionEventStore,
  type SessionEventStoreFactory,
} from './sessions/session-event-store.js';
export {
  NoSessionPeers,
  type SessionNotice,
  type SessionPeerListener,
  type SessionPeers,
} from './sessions/session-peers.js';
export {
  InMemorySessionRegistry,
  type SessionChange,
  type SessionCounts,
  type SessionRecord,
  type SessionRegistry,
  type StaleEviction,
} from './sessions/session-registry.js';
