// Trace ids for process-log lines: the span active where a line is written (a pino mixin). ctx.log lines carry the
// operation span's ids from the Context already; this covers the framework's own lines and services' logger calls.
import type { OtelApi } from './otel-api.js';

/** Reads the active span's ids through `api`, for each line written. */
export function activeTraceFields(api: OtelApi): () => { traceId?: string; spanId?: string } {
  const { trace, isSpanContextValid } = api;
  return () => {
    const spanContext = trace.getActiveSpan()?.spanContext();
    if (spanContext === undefined || !isSpanContextValid(spanContext)) return {};
    return { traceId: spanContext.traceId, spanId: spanContext.spanId };
  };
}
