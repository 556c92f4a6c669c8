// Trace ids for process-log lines: the span active where a line is written (a pino mixin). ctx.log lines carry the
// operation span's ids from the Context already; this covers the framework's own lines and services' logger calls.
import { isSpanContextValid, trace } from '@opentelemetry/api';

export function activeTraceFields(): { traceId?: string; spanId?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return {};
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}
