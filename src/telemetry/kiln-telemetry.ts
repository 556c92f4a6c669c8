// Whether anyone listens: Kiln asks the OpenTelemetry API for a tracer and a meter once, at boot, and keeps them only
// when the user registered an SDK. Without one, request paths skip telemetry on a single `undefined` check, and when
// nothing at all is registered the API is not even loaded (otel-api.ts).
import type { Tracer } from '@opentelemetry/api';
import { createKilnMetrics, type KilnMetrics } from './kiln-metrics.js';
import { loadOtelApi, type OtelApi } from './otel-api.js';
import { INSTRUMENTATION_SCOPE } from './semantic-names.js';

export interface KilnTelemetry {
  /** The registered TracerProvider's tracer; undefined when only metrics are collected. */
  readonly tracer: Tracer | undefined;
  /** Kiln's instruments on the registered MeterProvider; undefined when only traces are collected. */
  readonly metrics: KilnMetrics | undefined;
  /** The API the tracer and meter came from; absent when neither is set. */
  readonly api?: OtelApi;
}

/** Telemetry that records something: what request paths receive (or undefined). */
export interface ActiveTelemetry extends KilnTelemetry {
  readonly api: OtelApi;
}

/** Telemetry when no SDK is registered. */
export const NO_TELEMETRY: KilnTelemetry = { tracer: undefined, metrics: undefined };

/**
 * What the SDK the user registered offers. Read once, at boot: an SDK must be registered (NodeSDK started) before the
 * app is created, as OpenTelemetry asks of any instrumented library.
 */
export async function resolveTelemetry(): Promise<KilnTelemetry> {
  const api = await loadOtelApi();
  return api ? telemetryFrom(api) : NO_TELEMETRY;
}

/** What the providers registered with `api` offer. */
export function telemetryFrom(api: OtelApi): KilnTelemetry {
  const tracer = api.trace.getTracer(INSTRUMENTATION_SCOPE);
  // Until a TracerProvider is registered the API answers with a proxy that delegates to a no-op tracer.
  const tracing = !(tracer instanceof api.ProxyTracer);
  const meter = api.metrics.getMeter(INSTRUMENTATION_SCOPE);
  // The API hands out a NoopMeter until a MeterProvider is registered; its class is not exported, so one is made.
  const metering = !(meter instanceof api.createNoopMeter().constructor);
  if (!tracing && !metering) return NO_TELEMETRY;
  return { api, tracer: tracing ? tracer : undefined, metrics: metering ? createKilnMetrics(api, meter) : undefined };
}

/** `telemetry`, or undefined when it records nothing: request paths test this one value and skip the rest. */
export function activeTelemetry(telemetry: KilnTelemetry): ActiveTelemetry | undefined {
  const { api, tracer, metrics } = telemetry;
  return api === undefined || (tracer === undefined && metrics === undefined) ? undefined : { ...telemetry, api };
}
