// Test helper: the OpenTelemetry SDK a user would bring, registered globally with in-memory exporters (spans as they
// end, metrics on demand), the AsyncLocalStorage context manager and the W3C trace-context propagator.
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  type MetricData,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** A reader that exports nothing by itself: the test collects when it wants to look. */
class ManualReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

export interface OtelSdk {
  /** Spans ended so far, oldest first. */
  spans(): ReadableSpan[];
  /** The one ended span named `name`; fails when there is none or several. */
  span(name: string): ReadableSpan;
  /** Every metric collected now, by instrument name. */
  collect(): Promise<Map<string, MetricData>>;
  reset(): void;
  /** Unregisters everything, so the next test file starts without an SDK. */
  shutdown(): Promise<void>;
}

export interface OtelSdkOptions {
  readonly tracing?: boolean;
  readonly metrics?: boolean;
}

export function registerOtelSdk(options: OtelSdkOptions = {}): OtelSdk {
  const exporter = new InMemorySpanExporter();
  const reader = new ManualReader();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const meterProvider = new MeterProvider({ readers: [reader] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (options.tracing !== false) trace.setGlobalTracerProvider(tracerProvider);
  if (options.metrics !== false) metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => exporter.getFinishedSpans(),
    span: (name) => {
      const found = exporter.getFinishedSpans().filter((span) => span.name === name);
      if (found.length !== 1) {
        const names = exporter.getFinishedSpans().map((span) => span.name);
        throw new Error(`Expected one span named ${name}, found ${found.length} among [${names.join(', ')}]`);
      }
      return found[0] as ReadableSpan;
    },
    collect: async () => {
      const { resourceMetrics } = await reader.collect();
      const byName = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics)
        for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
      return byName;
    },
    reset: () => exporter.reset(),
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** The data points of `metric` whose attributes include every entry of `match`. */
export function pointsWith<T>(
  metric: MetricData | undefined,
  match: Readonly<Record<string, unknown>>,
): DataPoint<T>[] {
  if (metric === undefined) return [];
  return (metric.dataPoints as DataPoint<T>[]).filter((point) =>
    Object.entries(match).every(([key, value]) => point.attributes[key] === value),
  );
}

/** Total count over the histogram points matching `match`. */
export function histogramCount(metric: MetricData | undefined, match: Readonly<Record<string, unknown>>): number {
  return pointsWith<Histogram>(metric, match).reduce((total, point) => total + point.value.count, 0);
}

/** Sum over the counter points matching `match`. */
export function counterSum(metric: MetricData | undefined, match: Readonly<Record<string, unknown>>): number {
  return pointsWith<number>(metric, match).reduce((total, point) => total + point.value, 0);
}
