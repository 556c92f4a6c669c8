// The public surface of `mcp-kiln`. Pinned by test/public-api.test.ts: an accidental export or removal fails CI.
import 'reflect-metadata';

// The SDK's builder for what ctx.requestInput asks: inputRequired.elicit / .elicitUrl / .createMessage / .listRoots.
export { type InputRequest, inputRequired } from '@modelcontextprotocol/server';
export * from '../decorators/index.js';
export type { CreateAppOptions } from './app/app-options.js';
export type { ChangeNotifier, ChangeSink } from './app/change-notifier.js';
export { type DirectCallOptions, KilnApp } from './app/kiln-app.js';
export { createApp } from './bootstrap/create-app.js';
export { type KilnConfig, loadConfig } from './config/kiln-config.js';
export type { ContentBlock, ContentCollect } from './context/content-collect.js';
export type { Context, HandlerContext, ProtocolEra } from './context/context.js';
export type { ContextInputs, InputResponseView } from './context/context-inputs.js';
export type { Enrich, EnrichHelpers, TruncationDisclosure, TypedEnrich } from './context/enrich.js';
export type { Recovery, TypedFail } from './context/error-contract.js';
export { type AuthContext, type RequestContext, withExtra } from './context/request-context.js';
export type { RequestInputOptions, RequestInputSpec } from './context/request-input.js';
export type { InputOptions } from './definitions/input/index.js';
export { CONTEXT, createToken, KILN_CONFIG, LOGGER, NOTIFIER, STORAGE } from './di/tokens.js';
export { JsonRpcErrorCode, KilnBootError, McpError } from './errors/index.js';
export type { ContextLogger, Logger, LogLevel } from './logging/index.js';
export type { ContextState, StorageService } from './storage/index.js';
