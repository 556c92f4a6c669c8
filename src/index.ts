// The public surface of `mcp-kiln`. Pinned by test/public-api.test.ts (names) and the checked-in API report
// (types): an accidental export, removal or signature change fails CI.
import 'reflect-metadata';

// The SDK's builder for what ctx.requestInput asks: inputRequired.elicit / .elicitUrl / .createMessage / .listRoots.
export { type InputRequest, inputRequired } from '@modelcontextprotocol/server';
export * from '../decorators/index.js';
export type { CacheableMethod, CreateAppOptions } from './app/app-options.js';
export type { Serving } from './app/app-port.js';
export { DEFAULT_SHUTDOWN_DRAIN_MS, type DirectCallOptions, KilnApp } from './app/kiln-app.js';
export type {
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleDestroy,
  OnModuleInit,
} from './app/lifecycle-hooks.js';
export { createApp } from './bootstrap/create-app.js';
export { type ListenOptions, listen } from './bootstrap/listen.js';
export {
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
export type { CallUsage, QuotaStatus, RateLimitStatus } from './context/call-usage.js';
export type { ContentBlock, ContentCollect } from './context/content-collect.js';
export type { Context, HandlerContext, ProtocolEra } from './context/context.js';
export type { ContextInputs, InputResponseView } from './context/context-inputs.js';
export type { Enrich, EnrichHelpers, TruncationDisclosure, TypedEnrich } from './context/enrich.js';
export type { Recovery, TypedFail } from './context/error-contract.js';
export type { HttpRequestInfo } from './context/http-request.js';
export { type AuthContext, type RequestContext, withExtra } from './context/request-context.js';
export type { RequestInputOptions, RequestInputSpec } from './context/request-input.js';
export type { InputOptions } from './definitions/input/index.js';
export { CONTEXT, createToken, KILN_CONFIG, LOGGER, NOTIFIER, STORAGE, USAGE } from './di/tokens.js';
export type { ContextLogger, Logger, LogLevel } from './logging/index.js';
export type { ChangeNotifier } from './notifications/change-notifier.js';
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
export { type StdioServeOptions, stdio } from './transports/stdio-transport.js';
