// One SERVER span and one duration sample per operation (tools/call, resources/read, prompts/get,
// completion/complete), named and attributed as the OpenTelemetry MCP conventions say. The span is active while the
// handler runs, so storage calls and the handler's own instrumented calls become its children, and its ids reach
// ctx.traceId / ctx.spanId. Without an SDK registered the run goes straight through.
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { Attributes, Histogram, Span } from '@opentelemetry/api';
import type { ContextSeed } from '../context/create-context.js';
import type { ActiveTelemetry } from '../telemetry/kiln-telemetry.js';
import type { OtelApi } from '../telemetry/otel-api.js';
import { ATTR, type TracedMethod } from '../telemetry/semantic-names.js';
import { traceParentOf } from '../telemetry/trace-parent.js';
import { type Ending, failureEnding, resultEnding } from './call-ending.js';
import type { OperationKind, OperationRuntime, OperationSeed } from './operation-kind.js';

/** What an operation span says about the request before it runs. */
export interface OperationLabel {
  readonly method: TracedMethod;
  /** The served definition the request names (attribute, name); absent when it names nothing served here. */
  readonly target?: readonly [attribute: string, name: string];
  /** Attributes for the span only, too fine-grained for a metric (the resource URI). */
  readonly spanAttributes?: Attributes;
  /** What kiln.operation.request.size measures: the arguments, or the resource URI. */
  readonly request: unknown;
}

type TraceableSeed = Pick<ContextSeed, 'requestId' | 'tenantId' | 'sessionId' | 'era' | 'traceCarrier'> & {
  readonly traceId?: string;
  readonly spanId?: string;
};

export function traceOperation<S extends TraceableSeed, R>(
  telemetry: ActiveTelemetry,
  label: OperationLabel,
  seed: S,
  run: (seed: S) => Promise<R>,
): Promise<R> {
  const { tracer, metrics, api } = telemetry;
  const { context, trace } = api;
  const started = performance.now();
  const measured: Attributes = { [ATTR.mcpMethod]: label.method, [ATTR.era]: seed.era };
  if (label.target) measured[label.target[0]] = label.target[1];
  if (label.method === 'tools/call') measured[ATTR.genAiOperation] = 'execute_tool';

  let span: Span | undefined;
  let scope = context.active();
  let traced = seed;
  if (tracer) {
    const { parent, links } = traceParentOf(api, seed.traceCarrier);
    span = tracer.startSpan(
      label.target ? `${label.method} ${label.target[1]}` : label.method,
      { kind: api.SpanKind.SERVER, links, attributes: { ...measured, ...label.spanAttributes, ...identityOf(seed) } },
      parent,
    );
    scope = trace.setSpan(parent, span);
    const ids = span.spanContext();
    if (api.isSpanContextValid(ids)) traced = { ...seed, traceId: ids.traceId, spanId: ids.spanId };
  }
  if (metrics) recordSize(metrics.requestSize, label.request, measured);

  const finish = (ending: Ending, result?: R): void => {
    if (metrics) {
      const attributes = ending.errorType === undefined ? measured : { ...measured, ...errorAttributes(ending) };
      metrics.operationDuration.record((performance.now() - started) / 1000, attributes);
      if (result !== undefined) recordSize(metrics.responseSize, result, measured);
    }
    if (span) endSpan(api, span, ending);
  };
  let pending: Promise<R>;
  try {
    pending = context.with(scope, run, undefined, traced);
  } catch (error) {
    pending = Promise.reject(error);
  }
  return pending.then(
    (result) => {
      finish(resultEnding(result), result);
      return result;
    },
    (error: unknown) => {
      finish(failureEnding(error));
      throw error;
    },
  );
}

function identityOf(seed: TraceableSeed): Attributes {
  const attributes: Attributes = { [ATTR.requestId]: seed.requestId };
  if (seed.tenantId !== undefined) attributes[ATTR.tenantId] = seed.tenantId;
  if (seed.sessionId !== undefined) attributes[ATTR.mcpSessionId] = seed.sessionId;
  return attributes;
}

function errorAttributes(ending: Ending): Attributes {
  const attributes: Attributes = { [ATTR.errorType]: ending.errorType };
  if (ending.statusCode !== undefined) attributes[ATTR.rpcStatusCode] = ending.statusCode;
  return attributes;
}

function endSpan(api: OtelApi, span: Span, ending: Ending): void {
  span.setAttribute(ATTR.outcome, ending.outcome);
  if (ending.errorType !== undefined) {
    span.setAttributes(errorAttributes(ending));
    if (ending.reason !== undefined) span.setAttribute(ATTR.errorReason, ending.reason);
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: ending.message });
  }
  span.end();
}

/** JSON bytes, as the value travels on the wire; a value JSON cannot carry (a direct call's) is not measured. */
function recordSize(histogram: Histogram, value: unknown, attributes: Attributes): void {
  if (value === undefined) return;
  try {
    const json = typeof value === 'string' ? value : JSON.stringify(value);
    if (json !== undefined) histogram.record(Buffer.byteLength(json), attributes);
  } catch {
    // Circular or BigInt: nothing a client could have sent or received.
  }
}

type Round<Target, Args, Result> = (
  kind: OperationKind<Target, Args, Result>,
  runtime: OperationRuntime,
  key: string,
  args: Args,
  seed: OperationSeed,
) => Promise<Result | InputRequiredResult>;

/** One round of the operation runner, traced when the app has telemetry; otherwise `round` as it is. */
export function traceRound<Target, Args, Result>(
  kind: OperationKind<Target, Args, Result>,
  runtime: OperationRuntime,
  key: string,
  args: Args,
  seed: OperationSeed,
  round: Round<Target, Args, Result>,
): Promise<Result | InputRequiredResult> {
  const { telemetry } = runtime;
  if (telemetry === undefined) return round(kind, runtime, key, args, seed);
  return traceOperation(telemetry, roundLabel(kind, runtime, key, args), seed, (traced) =>
    round(kind, runtime, key, args, traced),
  );
}

const TARGET_ATTRIBUTE = {
  'tools/call': ATTR.toolName,
  'prompts/get': ATTR.promptName,
  'resources/read': ATTR.resourceName,
} as const;

function roundLabel<Target, Args, Result>(
  kind: OperationKind<Target, Args, Result>,
  runtime: OperationRuntime,
  key: string,
  args: Args,
): OperationLabel {
  const { method } = kind;
  // A name the app does not serve stays out of span names and metric attributes: clients choose it (cardinality).
  const found = kind.find(runtime, key);
  const name = found === undefined ? undefined : kind.targetName(found);
  const reads = method === 'resources/read';
  return {
    method,
    target: name === undefined ? undefined : [TARGET_ATTRIBUTE[method], name],
    spanAttributes: reads ? { [ATTR.mcpResourceUri]: key } : undefined,
    request: reads ? key : args,
  };
}
