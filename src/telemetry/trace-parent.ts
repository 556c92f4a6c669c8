// Where an MCP server span hangs in a trace. The MCP conventions make the client's context in `params._meta`
// (traceparent, tracestate, baggage; SEP-414) the parent and the ambient one (an HTTP server span, or the context an
// HTTP host extracted from its headers) a link; with no `_meta` context the ambient one is the parent.
import type { Context, Link } from '@opentelemetry/api';
import type { OtelApi } from './otel-api.js';

export interface TraceParent {
  readonly parent: Context;
  readonly links: Link[] | undefined;
}

/**
 * Reads `_meta` through the globally registered propagator (W3C trace context unless the user chose B3 or another
 * format), so a server speaks whatever its tracing backend does; with no propagator registered nothing is extracted.
 */
export function traceParentOf(api: OtelApi, meta: Readonly<Record<string, unknown>> | undefined): TraceParent {
  const { context, propagation, trace } = api;
  const ambient = context.active();
  if (meta === undefined) return { parent: ambient, links: undefined };
  const fromMeta = propagation.extract(ambient, meta);
  const metaSpan = trace.getSpanContext(fromMeta);
  const ambientSpan = trace.getSpanContext(ambient);
  // Nothing extracted (or baggage alone) leaves the ambient span the parent, with no link to itself.
  const linked = ambientSpan !== undefined && metaSpan !== ambientSpan;
  return { parent: fromMeta, links: linked ? [{ context: ambientSpan }] : undefined };
}

/** Header values as Node gives them: lower-case names, a list for repeated headers. */
export type HeaderCarrier = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Runs `run` in the trace context an HTTP request's headers carry, unless an HTTP instrumentation already made a
 * server span for this request (its span then stays the ambient parent).
 */
export function inHeaderContext<T>(api: OtelApi, headers: HeaderCarrier, run: () => T): T {
  const { context, propagation, trace } = api;
  const active = context.active();
  if (trace.getSpan(active) !== undefined) return run();
  const extracted = propagation.extract(active, headers);
  return extracted === active ? run() : context.with(extracted, run);
}
