// The Context implementation: a class, so every request's context shares one hidden shape and prototype
// (an object literal with a getter costs microseconds per request on V8). Fields are set once per request.
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { ContextLogger } from '../logging/index.js';
import type { ContextState } from '../storage/index.js';
import type { ContentCollect } from './content-collect.js';
import type { Context, ProtocolEra } from './context.js';
import type { Enrich } from './enrich.js';
import type { Recovery, TypedFail } from './error-contract.js';
import type { AuthContext } from './request-context.js';

export interface KilnContextParts {
  readonly requestId: string;
  readonly timestamp: string;
  readonly tenantId: string | undefined;
  readonly sessionId: string | undefined;
  readonly traceId: string | undefined;
  readonly spanId: string | undefined;
  readonly auth: AuthContext | undefined;
  readonly operation: string;
  readonly extra: Readonly<Record<string, unknown>> | undefined;
  readonly era: ProtocolEra;
  readonly signal: AbortSignal;
  readonly clientCapabilities: ClientCapabilities | undefined;
  readonly uri: URL | undefined;
  readonly log: ContextLogger;
  readonly enrich: Enrich;
  readonly content: ContentCollect;
  readonly fail: TypedFail<string>;
  readonly recoveryFor: (reason: string) => Recovery | Record<string, never>;
  readonly progress: (progress: number, total?: number, message?: string) => Promise<void>;
  readonly notifyToolListChanged: (() => void) | undefined;
  readonly notifyPromptListChanged: (() => void) | undefined;
  readonly notifyResourceListChanged: (() => void) | undefined;
  readonly notifyResourceUpdated: ((uri: string) => void) | undefined;
  readonly openState: () => ContextState;
}

export class KilnContext implements Context {
  readonly requestId: string;
  readonly timestamp: string;
  readonly tenantId: string | undefined;
  readonly sessionId: string | undefined;
  readonly traceId: string | undefined;
  readonly spanId: string | undefined;
  readonly auth: AuthContext | undefined;
  readonly operation: string;
  readonly extra: Readonly<Record<string, unknown>> | undefined;
  readonly era: ProtocolEra;
  readonly signal: AbortSignal;
  readonly clientCapabilities: ClientCapabilities | undefined;
  readonly uri: URL | undefined;
  readonly log: ContextLogger;
  readonly enrich: Enrich;
  readonly content: ContentCollect;
  readonly fail: TypedFail<string>;
  readonly recoveryFor: (reason: string) => Recovery | Record<string, never>;
  readonly progress: (progress: number, total?: number, message?: string) => Promise<void>;
  readonly notifyToolListChanged: (() => void) | undefined;
  readonly notifyPromptListChanged: (() => void) | undefined;
  readonly notifyResourceListChanged: (() => void) | undefined;
  readonly notifyResourceUpdated: ((uri: string) => void) | undefined;
  readonly #parts: KilnContextParts;
  #state: ContextState | undefined;

  constructor(parts: KilnContextParts) {
    this.#parts = parts;
    this.requestId = parts.requestId;
    this.timestamp = parts.timestamp;
    this.tenantId = parts.tenantId;
    this.sessionId = parts.sessionId;
    this.traceId = parts.traceId;
    this.spanId = parts.spanId;
    this.auth = parts.auth;
    this.operation = parts.operation;
    this.extra = parts.extra;
    this.era = parts.era;
    this.signal = parts.signal;
    this.clientCapabilities = parts.clientCapabilities;
    this.uri = parts.uri;
    this.log = parts.log;
    this.enrich = parts.enrich;
    this.content = parts.content;
    this.fail = parts.fail;
    this.recoveryFor = parts.recoveryFor;
    this.progress = parts.progress;
    this.notifyToolListChanged = parts.notifyToolListChanged;
    this.notifyPromptListChanged = parts.notifyPromptListChanged;
    this.notifyResourceListChanged = parts.notifyResourceListChanged;
    this.notifyResourceUpdated = parts.notifyResourceUpdated;
  }

  /** Opened on first use: most calls never touch state, and a missing tenant must fail only when one does. */
  get state(): ContextState {
    this.#state ??= this.#parts.openState();
    return this.#state;
  }

  /** The same request with a different `extra` bag (see `withExtra`). */
  withExtra(extra: Readonly<Record<string, unknown>>): KilnContext {
    return new KilnContext({ ...this.#parts, extra });
  }
}
