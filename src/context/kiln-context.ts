// The Context implementation: a class, so every request's context shares one hidden shape and prototype
// (an object literal with a getter costs microseconds per request on V8). Fields are set once per request.
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { ContextLogger } from '../logging/index.js';
import type { ContextState } from '../storage/index.js';
import { type SignalSource, signalOf } from './call-cancellation.js';
import { type CallUsage, NO_USAGE } from './call-usage.js';
import type { ContentCollect } from './content-collect.js';
import type { Context, ProtocolEra } from './context.js';
import { type ContextInputs, createContextInputs, type RoundInputs } from './context-inputs.js';
import type { Enrich } from './enrich.js';
import type { Recovery, TypedFail } from './error-contract.js';
import type { HttpRequestInfo } from './http-request.js';
import type { AuthContext } from './request-context.js';
import { type RequestInputOptions, type RequestInputSpec, requestInput } from './request-input.js';
import { insufficientScope, unmetScopes } from './scope-check.js';
import { NO_TASK, type TaskBinding } from './task-binding.js';

/** Everything a context carries, set once per request. */
export type KilnContextFields = Omit<
  KilnContext,
  | 'state'
  | 'inputs'
  | 'requestInput'
  | 'requireScopes'
  | 'withExtra'
  | 'taskId'
  | 'startTask'
  | 'timestamp'
  | 'signal'
  | 'http'
  | 'usage'
>;

/** What a context reads from its request's seed on demand: the round's input answers, its task binding, its signal. */
export interface ContextRound extends RoundInputs {
  readonly task?: TaskBinding;
  readonly signal: SignalSource;
  /** What the call's rate limits and quotas counted; absent when none applies. */
  readonly usage?: CallUsage;
  /** The HTTP facts of the request, read from the host on first use; absent over stdio. */
  readonly http?: () => HttpRequestInfo | undefined;
}

export class KilnContext implements Context {
  declare readonly requestId: string;
  declare readonly tenantId: string | undefined;
  declare readonly sessionId: string | undefined;
  declare readonly traceId: string | undefined;
  declare readonly spanId: string | undefined;
  declare readonly auth: AuthContext | undefined;
  declare readonly operation: string;
  declare readonly extra: Readonly<Record<string, unknown>> | undefined;
  declare readonly era: ProtocolEra;
  declare readonly clientCapabilities: ClientCapabilities | undefined;
  declare readonly uri: URL | undefined;
  declare readonly log: ContextLogger;
  declare readonly enrich: Enrich;
  declare readonly content: ContentCollect;
  declare readonly fail: TypedFail<string>;
  declare readonly recoveryFor: (reason: string) => Recovery | Record<string, never>;
  declare readonly progress: (progress: number, total?: number, message?: string) => Promise<void>;
  declare readonly closeStream: () => boolean;
  declare readonly notifyToolListChanged: (() => void) | undefined;
  declare readonly notifyPromptListChanged: (() => void) | undefined;
  declare readonly notifyResourceListChanged: (() => void) | undefined;
  declare readonly notifyResourceUpdated: ((uri: string) => void) | undefined;
  readonly #fields: KilnContextFields;
  readonly #openState: () => ContextState;
  readonly #round: ContextRound;
  #state: ContextState | undefined;
  #inputs: ContextInputs | undefined;
  #http: HttpRequestInfo | undefined | null = null;
  /** The ISO timestamp once read; until then the epoch milliseconds the request started at. */
  #timestamp: string | number;

  // Callers always pass the fields in one order (createContext), so every instance shares one hidden class.
  // `round` is the request's seed itself, so carrying it costs no allocation. `startedAt` is the request's
  // timestamp, as an ISO string or as the epoch milliseconds to format it from when first read.
  constructor(
    fields: KilnContextFields,
    openState: () => ContextState,
    round: ContextRound,
    startedAt: string | number,
  ) {
    Object.assign(this, fields);
    this.#fields = fields;
    this.#openState = openState;
    this.#round = round;
    this.#timestamp = startedAt;
  }

  /** Made on first read where the host made cancellation on demand: most requests never look. */
  get signal(): AbortSignal {
    return signalOf(this.#round.signal);
  }

  /** When the request started (ISO 8601); formatted on first read, since most requests never read it. */
  get timestamp(): string {
    if (typeof this.#timestamp === 'number') this.#timestamp = new Date(this.#timestamp).toISOString();
    return this.#timestamp;
  }

  /** Opened on first use: most calls never touch state, and a missing tenant must fail only when one does. */
  get state(): ContextState {
    this.#state ??= this.#openState();
    return this.#state;
  }

  /** Read from the host on first use: most tools never look. */
  get http(): HttpRequestInfo | undefined {
    if (this.#http === null) this.#http = this.#round.http?.();
    return this.#http;
  }

  /** Built on first read: most requests carry no answers and never look. */
  get inputs(): ContextInputs {
    this.#inputs ??= createContextInputs(this.#round, this.clientCapabilities);
    return this.#inputs;
  }

  /** A method, not a per-request closure: a request that never asks for input allocates nothing for it. */
  requestInput(spec: RequestInputSpec, options?: RequestInputOptions): never {
    return requestInput(this.era, this.clientCapabilities, spec, options);
  }

  get usage(): CallUsage {
    return this.#round.usage ?? NO_USAGE;
  }

  /** Read through the binding: a call started as an ordinary round becomes a task when the handler starts one. */
  get taskId(): string | undefined {
    return this.#round.task?.taskId;
  }

  startTask(statusMessage?: string): Promise<void> {
    return (this.#round.task ?? NO_TASK).start(statusMessage);
  }

  requireScopes(...scopes: readonly [string, ...string[]]): void {
    const unmet = unmetScopes({ mode: 'all', scopes }, this.auth);
    if (unmet) throw insufficientScope(unmet, this.operation || 'This call');
  }

  /** The same request with a different `extra` bag (see `withExtra`). */
  withExtra(extra: Readonly<Record<string, unknown>>): KilnContext {
    return new KilnContext({ ...this.#fields, extra }, this.#openState, this.#round, this.timestamp);
  }
}
