// The public surface of `mcp-kiln`. Pinned by test/public-api.test.ts (names) and the checked-in API report
// (types): an accidental export, removal or signature change fails CI.
import 'reflect-metadata';

// The SDK's builder for what ctx.requestInput asks: inputRequired.elicit / .elicitUrl / .createMessage / .listRoots.
export { type InputRequest, inputRequired } from '@modelcontextprotocol/server';
export * from '../decorators/index.js';
export type { AppCatalog, CatalogPrompt, CatalogResource, CatalogTool } from './app/app-catalog.js';
export type { CacheableMethod, CreateAppOptions } from './app/app-options.js';
export type {
  AppPort,
  HeaderCarrier,
  HostGauge,
  HostHandle,
  HostTelemetry,
  KilnHost,
  ModernCall,
  ModernCallAnswer,
  ProtocolServerOptions,
  RequestHeaders,
  Serving,
  SessionAnswer,
  SessionCall,
  SinkClient,
} from './app/app-port.js';
export type { EdgeRefusal } from './app/edge-refusal.js';
export { DEFAULT_SHUTDOWN_DRAIN_MS, type DirectCallOptions, KilnApp } from './app/kiln-app.js';
export type {
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleDestroy,
  OnModuleInit,
} from './app/lifecycle-hooks.js';
export { createApp } from './bootstrap/create-app.js';
export { type ListenOptions, listen } from './bootstrap/listen.js';
export { EnvReader } from './config/env-reader.js';
export {
  AUTH_MODES,
  type AuthMode,
  type AuthSettings,
  type HttpConfig,
  type HttpTimeouts,
  type KilnConfig,
  loadConfig,
  type RequestStateConfig,
  type ServerCardConfig,
  type SessionMode,
  type ShutdownConfig,
  type TasksConfig,
} from './config/kiln-config.js';
export { CallCancellation, type SignalSource, signalOf } from './context/call-cancellation.js';
export type { CallUsage, QuotaStatus, RateLimitStatus } from './context/call-usage.js';
export type { ContentBlock, ContentCollect } from './context/content-collect.js';
export type { Context, HandlerContext, ProtocolEra } from './context/context.js';
export type { ContextInputs, InputResponseView } from './context/context-inputs.js';
export type { Enrich, EnrichHelpers, TruncationDisclosure, TypedEnrich } from './context/enrich.js';
export type { Recovery, TypedFail } from './context/error-contract.js';
export { HTTP_FACT_HEADERS, type HttpRequestInfo, httpInfoFromNodeHeaders } from './context/http-request.js';
export { type AuthContext, type RequestContext, withExtra } from './context/request-context.js';
export type { RequestInputOptions, RequestInputSpec } from './context/request-input.js';
export type { InputOptions } from './definitions/input/index.js';
export { CONTEXT, createToken, KILN_CONFIG, LOGGER, NOTIFIER, STORAGE, USAGE } from './di/tokens.js';
export { JsonRpcErrorCode, KilnBootError, McpError } from './errors/index.js';
export { type ContextLogger, isLevelEnabled, type Logger, type LogLevel } from './logging/index.js';
export {
  CHANGE_EVENT_ID_META,
  type ChangeNotifier,
  type ChangeSink,
  changeEventIdOf,
  type TaskStatusChange,
  withChangeEventId,
} from './notifications/change-notifier.js';
export { type DirectCall, directCallOf } from './protocol/direct-call.js';
export { type Principal, principalKey, principalOf } from './protocol/principal.js';
export { type SessionRequest, sessionCallOf } from './protocol/session-call.js';
export type {
  ContextState,
  StorageEntry,
  StorageListOptions,
  StorageListPage,
  StorageProvider,
  StorageService,
  StorageSetOptions,
  UsageLedger,
  UsageRow,
} from './storage/index.js';
export type { DetailedTask, TaskWatch } from './tasks/task-watch.js';
export { type StdioServeOptions, stdio } from './transports/stdio-transport.js';
