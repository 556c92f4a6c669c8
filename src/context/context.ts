// The Context handed to every tool, resource and prompt handler, and HandlerContext: the same object typed from
// the tool's @Errors contract and @Enrichment block.
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { EnrichmentShape, ErrorContract, ReasonOf } from '../../decorators/types.js';
import type { ContextLogger } from '../logging/index.js';
import type { ContextState } from '../storage/index.js';
import type { Bivariant } from './bivariant.js';
import type { CallUsage } from './call-usage.js';
import type { ContentCollect } from './content-collect.js';
import type { ContextInputs } from './context-inputs.js';
import type { Enrich, TypedEnrich } from './enrich.js';
import type { Recovery, TypedFail } from './error-contract.js';
import type { HttpRequestInfo } from './http-request.js';
import type { ProtocolEra } from './protocol-era.js';
import type { RequestContext } from './request-context.js';
import type { RequestInputOptions, RequestInputSpec } from './request-input.js';

export type { ProtocolEra } from './protocol-era.js';

export interface Context extends RequestContext {
  /** Request-correlated logging: pino on stderr, mirrored to the client as notifications/message. */
  readonly log: ContextLogger;
  /** Tenant-scoped key-value storage. */
  readonly state: ContextState;
  /** Aborts when the client cancels the request or the transport closes. */
  readonly signal: AbortSignal;
  /** Success-path enrichment for structuredContent and the content[] trailer. */
  readonly enrich: Enrich;
  /** Image and audio blocks for content[] (never structuredContent). */
  readonly content: ContentCollect;
  /** What the client declared: the `initialize` value (2025 era) or the request's envelope (2026-07-28). */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** The protocol era this request is served on. */
  readonly era: ProtocolEra;
  /**
   * Asks the caller for input and never returns: the call is answered with `input_required` and the handler runs
   * again with the answers on `ctx.inputs`. Write it as `return ctx.requestInput(...)` so TypeScript narrows below.
   * A 2025-era client that did not declare the capability a request needs gets a `client_capability_missing` refusal.
   */
  requestInput(spec: RequestInputSpec, options?: RequestInputOptions): never;
  /** This round's answers, limited to what the client's declared capabilities cover. */
  readonly inputs: ContextInputs;
  /** Sends notifications/progress when the caller supplied a progress token; otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Closes this request's SSE stream while the handler keeps working (SSE polling, SEP-1699): the client reconnects
   * after the stream's `retry` with Last-Event-ID and receives what follows, the result included. Only a 2025-11-25
   * HTTP session with resumability on can resume a stream; elsewhere nothing is closed and it returns false.
   */
  closeStream(): boolean;
  readonly notifyToolListChanged?: () => void;
  readonly notifyPromptListChanged?: () => void;
  readonly notifyResourceListChanged?: () => void;
  readonly notifyResourceUpdated?: (uri: string) => void;
  /** The URI being read; resource handlers only. */
  readonly uri?: URL;
  /** What this call's @RateLimit and @Quota policies counted, with what is left; empty lists when none applies. */
  readonly usage: CallUsage;
  /** The HTTP request that carried this call (headers, caller's address, URL); undefined over stdio. */
  readonly http: HttpRequestInfo | undefined;
  /**
   * Throws `insufficient_scope` unless the caller's token carries every scope named, for checks that depend on what
   * the call touches (another tenant's record, an admin-only field). Requests without auth pass, as with @Scopes.
   */
  requireScopes(...scopes: readonly [string, ...string[]]): void;
  /** The task this call runs as (the Tasks extension); undefined for an ordinary call. */
  readonly taskId: string | undefined;
  /**
   * For a tool declared `task: { start: 'handler' }`: creates the task and answers the call with it, so the rest of
   * the handler runs as the task (asked input then goes out on tasks/get, progress becomes its status message).
   * Resolves at once when the call already is a task or the client cannot have one (the work goes on as an ordinary
   * call). Rejects in a handler that cannot run as a task.
   */
  startTask(statusMessage?: string): Promise<void>;
  /** The contract's recovery hint for a reason, ready to spread into error data; `{}` when undeclared. */
  readonly recoveryFor: Bivariant<(reason: string) => Recovery | Record<string, never>>;
}

/**
 * The handler's view of the Context: `fail` and `recoveryFor` typed from the @Errors tuple, `enrich` typed from the
 * @Enrichment shape. `ctx.fail('typo')` does not compile when 'typo' is not a declared reason.
 */
export type HandlerContext<
  E extends ErrorContract = readonly [],
  S extends EnrichmentShape = Record<never, never>,
> = Omit<Context, 'enrich' | 'recoveryFor'> & {
  readonly fail: TypedFail<ReasonOf<E>>;
  readonly recoveryFor: Bivariant<(reason: ReasonOf<E>) => Recovery>;
  readonly enrich: TypedEnrich<S>;
};
