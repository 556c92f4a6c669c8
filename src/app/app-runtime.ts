// Everything a compiled app serves from: the root container, the compiled definitions and their precomputed
// listings and server options. Built once at boot; read-only afterwards, shared by every request and transport.
import type { DependencyContainer } from 'tsyringe';
import type { InjectionToken, ProviderScope } from '../../decorators/types.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import type { ProtocolRuntime } from '../protocol/protocol-runtime.js';
import type { HostTelemetry } from '../telemetry/host-telemetry.js';
import type { EdgeRefusal } from './edge-refusal.js';
import type { InFlightRequests } from './in-flight-requests.js';
import type { LifecycleHooks } from './lifecycle-hooks.js';

export interface AppRuntime extends ProtocolRuntime {
  readonly instructions: string | undefined;
  readonly container: DependencyContainer;
  /** Scope of every token the root container resolves (framework and module providers, after overrides). */
  readonly providerScopes: ReadonlyMap<InjectionToken, ProviderScope>;
  readonly hooks: LifecycleHooks;
  /** Closes the audit trail's own file; run at shutdown after the hosts drained, before the modules' hooks. */
  readonly closeObservers: () => Promise<void>;
  /** Records a host's refusal in the audit trail; absent when the trail is off. */
  readonly auditRefusal?: (refusal: EdgeRefusal) => void;
  readonly inFlight: InFlightRequests;
  /** Every tool, disabled ones included, for the catalogue and landing page. */
  readonly manifestTools: readonly CompiledTool[];
  /** What hosts get of telemetry through the AppPort (no-ops without an SDK). */
  readonly hostTelemetry: HostTelemetry;
  /** Resolves when the storage backend answers (readiness). */
  readonly probeStorage: () => Promise<void>;
}
