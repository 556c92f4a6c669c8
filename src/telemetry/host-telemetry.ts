// What a host (the HTTP host, or one a user writes) needs of telemetry through the AppPort: run a request in the trace
// context its headers carry, and report the sessions and streams it holds open. Both are no-ops without an SDK.
import type { ObservableResult, ObservableUpDownCounter } from '@opentelemetry/api';
import type { ActiveTelemetry } from './kiln-telemetry.js';
import { type HeaderCarrier, inHeaderContext } from './trace-parent.js';

export type { HeaderCarrier };

/** What a host holds open: live 2025-era sessions, open 2026-07-28 listen streams. */
export type HostGauge = 'sessions' | 'listen_streams';

export interface HostTelemetry {
  /** Runs `run` in the trace context the request's headers carry (traceparent through the registered propagator). */
  inRequestContext<T>(headers: HeaderCarrier, run: () => T): T;
  /** Reports `read()` as the gauge's value at each metric collection; returns the function that stops it. */
  observe(gauge: HostGauge, read: () => number): () => void;
}

const runAlone = <T>(_headers: HeaderCarrier, run: () => T): T => run();
const stopNothing = () => undefined;

export function hostTelemetry(telemetry: ActiveTelemetry | undefined): HostTelemetry {
  const instruments = telemetry?.metrics;
  const api = telemetry?.tracer ? telemetry.api : undefined;
  return {
    inRequestContext: api ? (headers, run) => inHeaderContext(api, headers, run) : runAlone,
    observe: (gauge, read) => {
      if (!instruments) return stopNothing;
      const counter: ObservableUpDownCounter =
        gauge === 'sessions' ? instruments.activeSessions : instruments.activeListenStreams;
      const callback = (result: ObservableResult) => result.observe(read());
      counter.addCallback(callback);
      return () => counter.removeCallback(callback);
    },
  };
}
