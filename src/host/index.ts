// `mcp-kiln/host`: what a host or a backend author needs and an app author does not. The port a host serves an app
// through, the direct calls hosts run without the SDK's dispatch, principals and their keys, the HTTP facts a host
// stamps, change events with their ids for buses, task watches for listen streams, and the configuration helpers
// modules read their settings with. Pinned by test/public-api.test.ts and the API report, like the other entries.
export type { AppCatalog, CatalogPrompt, CatalogResource, CatalogTool } from '../app/app-catalog.js';
export type {
  AppPort,
  EnvelopeCall,
  EnvelopeCallAnswer,
  HeaderCarrier,
  HostGauge,
  HostHandle,
  HostTelemetry,
  KilnHost,
  ProtocolServerOptions,
  RequestHeaders,
  SessionAnswer,
  SessionCall,
  SinkClient,
} from '../app/app-port.js';
export type { EdgeRefusal } from '../app/edge-refusal.js';
export { EnvReader, fallbacksOver } from '../config/env-reader.js';
export { AUTH_MODES } from '../config/kiln-config.js';
export { CallCancellation, type SignalSource, signalOf } from '../context/call-cancellation.js';
export { HTTP_FACT_HEADERS, httpInfoFromNodeHeaders } from '../context/http-request.js';
export { isLevelEnabled } from '../logging/index.js';
export {
  CHANGE_EVENT_ID_META,
  type ChangeSink,
  changeEventIdOf,
  type TaskStatusChange,
  withChangeEventId,
} from '../notifications/change-notifier.js';
export { type DirectCall, directCallOf } from '../protocol/direct-call.js';
export { type Principal, principalKey, principalOf } from '../protocol/principal.js';
export { type SessionRequest, sessionCallOf } from '../protocol/session-call.js';
export type { DetailedTask, TaskWatch } from '../tasks/task-watch.js';
