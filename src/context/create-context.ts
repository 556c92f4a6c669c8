// Builds the per-request Context from what the era bridge knows about the request. Everything here is cheap
// closures over per-request collectors; nothing is compiled or looked up by name.

import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { createContextLogger, type Logger, type LogLevel, type LogMirror, type Redaction } from '../logging/index.js';
import type { ContextState } from '../storage/index.js';
import type { SignalSource } from './call-cancellation.js';
import type { CallUsage } from './call-usage.js';
import { ContentCollector } from './content-collect.js';
import type { Context, ProtocolEra } from './context.js';
import type { RoundInputs } from './context-inputs.js';
import { createEnrichmentCollector, type EnrichmentCollector } from './enrich.js';
import { type CompiledContract, NO_CONTRACT, type TypedFail } from './error-contract.js';
import type { HttpRequestInfo } from './http-request.js';
import { KilnContext } from './kiln-context.js';
import type { AuthContext } from './request-context.js';
import type { TaskBinding } from './task-binding.js';

/** Where a request's notifications go; each is optional because not every transport can deliver each kind. */
export interface RequestChannel {
  readonly progress?: (params: { progress: number; total?: number; message?: string }) => Promise<void>;
  readonly log?: LogMirror;
  readonly toolListChanged?: () => void;
  readonly promptListChanged?: () => void;
  readonly resourceListChanged?: () => void;
  readonly resourceUpdated?: (uri: string) => void;
  /** Closes the request's SSE stream for the client to resume later (2025 HTTP sessions with an event store). */
  readonly closeStream?: () => void;
}

/** What the era bridge knows about a request. The RoundInputs fields (`inputResponses`, ...) feed ctx.inputs. */
export interface ContextSeed extends RoundInputs {
  readonly requestId: string;
  readonly timestamp?: string;
  readonly tenantId: string | undefined;
  readonly sessionId?: string;
  readonly traceId?: string;
  readonly spanId?: string;
  /** The request's `_meta`, where a client puts `traceparent`, `tracestate` and `baggage` (SEP-414). */
  readonly traceCarrier?: Readonly<Record<string, unknown>>;
  readonly auth?: AuthContext;
  readonly operation: string;
  readonly extra?: Readonly<Record<string, unknown>>;
  readonly era: ProtocolEra;
  /** ctx.signal, or what makes it on first read (a host's CallCancellation). */
  readonly signal: SignalSource;
  readonly clientCapabilities: ClientCapabilities | undefined;
  readonly channel: RequestChannel;
  readonly uri?: URL;
  /** The HTTP facts of the request (ctx.http), read on first use; absent over stdio. */
  readonly http?: () => HttpRequestInfo | undefined;
  /** Seals an input_required round's requestState for the wire (MCP_REQUEST_STATE_KEY); absent, it goes out as is. */
  readonly sealRequestState?: (state: string) => Promise<string>;
  /** The task this run is (or may become), for ctx.taskId and ctx.startTask; absent for calls that never are. */
  readonly task?: TaskBinding;
  /** What the call's rate limits and quotas counted (ctx.usage). */
  readonly usage?: CallUsage;
}

export interface ContextServices {
  readonly logger: Logger;
  readonly logFloor: LogLevel;
  /** The app's redaction (MCP_LOG_REDACT_FIELDS on top of the defaults); the defaults when absent. */
  readonly redaction?: Redaction;
  readonly stateFor: (tenantId: string | undefined) => ContextState;
}

/** The context as handlers see it, plus the collectors the pipeline reads back after the handler returns. */
export interface BuiltContext {
  readonly context: Context & { readonly fail: TypedFail<string> };
  readonly enrichment: EnrichmentCollector;
  readonly media: ContentCollector;
}

/** The Context of one request; `contract` is the definition's compiled @Errors (its ctx.fail and ctx.recoveryFor). */
export function createContext(
  seed: ContextSeed,
  services: ContextServices,
  contract: CompiledContract = NO_CONTRACT,
): BuiltContext {
  const enrichment = createEnrichmentCollector();
  const media = new ContentCollector();
  const { channel } = seed;
  const { fail, recoveryFor } = contract;
  // Written out field by field: object spread with extra keys takes V8's slow path (microseconds per request).
  const context: KilnContext = new KilnContext(
    {
      requestId: seed.requestId,
      tenantId: seed.tenantId,
      sessionId: seed.sessionId,
      traceId: seed.traceId,
      spanId: seed.spanId,
      operation: seed.operation,
      auth: seed.auth,
      extra: seed.extra,
      era: seed.era,
      clientCapabilities: seed.clientCapabilities,
      uri: seed.uri,
      // The logger reads its correlation fields from this context on first use; requests that never log pay nothing.
      log: createContextLogger({
        logger: services.logger,
        canonical: () => context,
        extra: seed.extra,
        floor: services.logFloor,
        mirror: channel.log,
        redaction: services.redaction,
      }),
      enrich: enrichment.enrich,
      content: media.content,
      fail,
      recoveryFor,
      progress: async (progress, total, message) => {
        if (!channel.progress) return;
        const params: { progress: number; total?: number; message?: string } = { progress };
        if (total !== undefined) params.total = total;
        if (message) params.message = message;
        await channel.progress(params);
      },
      closeStream: () => {
        if (!channel.closeStream) return false;
        channel.closeStream();
        return true;
      },
      notifyToolListChanged: channel.toolListChanged,
      notifyPromptListChanged: channel.promptListChanged,
      notifyResourceListChanged: channel.resourceListChanged,
      notifyResourceUpdated: channel.resourceUpdated,
    },
    () => services.stateFor(seed.tenantId),
    seed,
    seed.timestamp ?? Date.now(),
  );
  return { context, enrichment, media };
}
