// The OpenTelemetry API, loaded only when something registered with it before the app booted. @opentelemetry/api is
// some 45 module files, a tenth of a stdio server's cold start, and with no SDK registered Kiln has nothing to report
// to. Every copy of the API keeps what is registered with it (tracer and meter providers, a propagator, a context
// manager, a diagnostic logger) on one global object, made by the first registration and kept under this key; no
// object means nothing was registered, by any copy.
import type * as OpenTelemetryApi from '@opentelemetry/api';

export type OtelApi = typeof OpenTelemetryApi;

/** Where API 1.x keeps its registrations (`Symbol.for('opentelemetry.js.api.<major>')`). */
const REGISTRY = Symbol.for('opentelemetry.js.api.1');

/** The API when anything is registered with it; otherwise undefined, and nothing is loaded. */
export async function loadOtelApi(): Promise<OtelApi | undefined> {
  if ((globalThis as Record<symbol, unknown>)[REGISTRY] === undefined) return undefined;
  return import('@opentelemetry/api');
}
