// Whether anyone listens: Kiln asks the OpenTelemetry API for a tracer and a meter once, at boot, and keeps them only
// when the user registered an SDK. Without one, request paths skip telemetry on a single `undefined` check.
import { createNoopMeter, metrics, ProxyTracer, type Tracer, trace } from '@opentelemetry/api';
import { createKilnMetrics, type KilnMetrics } from './kiln-metrics.js';
import { INSTRUMENTATION_SCOPE } from './semantic-names.js';

export interface KilnTelemetry {
  /** The registered TracerProvider's tracer; undefined when only metrics are collected. */
  readonly tracer: Tracer | undefined;
  /** Kiln's instruments on the registered MeterProvider; undefined when only traces are collected. */
  readonly metrics: KilnMetrics | undefined;
}

// The API hands out a NoopMeter until a MeterProvider is registered; its class is not exported, so one is made here.
const NoopMeter = createNoopMeter().constructor;

/** Telemetry when no SDK is registered. */
export const NO_TELEMETRY: KilnTelemetry = { tracer: undefined, metrics: undefined };

/**
 * What the SDK the user registered offers. Read once, at boot: an SDK must be registered (NodeSDK started) before the
 * app is created, as OpenTelemetry asks of any instrumented library.
 */
export function resolveTelemetry(): KilnTelemetry {
  const tracer = trace.getTracer(INSTRUMENTATION_SCOPE);
  // Until a TracerProvider is registered the API answers with a proxy that delegates to a no-op tracer.
  const tracing = !(tracer instanceof ProxyTracer);
  const meter = metrics.getMeter(INSTRUMENTATION_SCOPE);
  const metering = !(meter instanceof NoopMeter);
  if (!tracing && !metering) return NO_TELEMETRY;
  return { tracer: tracing ? tracer : undefined, metrics: metering ? createKilnMetrics(meter) : undefined };
}

/** `telemetry`, or undefined when it records nothing: request paths test this one value and skip the rest. */
export function activeTelemetry(telemetry: KilnTelemetry): KilnTelemetry | undefined {
  return telemetry.tracer === undefined && telemetry.metrics === undefined ? undefined : telemetry;
}
