// What the era bridge serves from: the compiled definitions, their precomputed listings, the options every protocol
// server of the app shares, and where notifications and in-flight requests are tracked. The app's runtime is one.
import type { Implementation, ServerCapabilities, ServerOptions } from '@modelcontextprotocol/server';
import type { CompiledSkills } from '../definitions/compile-skills.js';
import type { CompiledPrompt, CompiledResource } from '../definitions/compiled-resource.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import type { CompiledUiResources } from '../definitions/ui/compile-ui-resources.js';
import type { ChangeNotifier } from '../notifications/change-notifier.js';
import type { OperationRuntime } from '../pipeline/operation-kind.js';
import type { TaskSupport } from '../tasks/task-support.js';
import type { RequestStateSealing } from './request-state-sealing.js';

/** Tracks requests being served, so shutdown can let them answer. */
export interface InFlightTracker {
  track<T>(work: Promise<T>): Promise<T>;
}

export interface ProtocolRuntime extends OperationRuntime {
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  /** The options every protocol server of this app shares (capabilities, cache hints, requestState verify). */
  readonly serverOptions: ServerOptions;
  /** The same for 2025-era servers: without what exists on 2026-07-28 only (the Tasks extension). */
  readonly handshakeServerOptions: ServerOptions;
  readonly inFlight: InFlightTracker;
  /** List-changed and resource-updated notifications, in and out of requests. */
  readonly notifier: ChangeNotifier;
  /** Seals and verifies requestState when MCP_REQUEST_STATE_KEY is set; undefined leaves it raw. */
  readonly requestStateSealing: RequestStateSealing | undefined;
  /** MCP_AUTH_HIDE_FORBIDDEN_TOOLS: tools/list leaves out the tools an authenticated caller's scopes cannot call. */
  readonly hideForbiddenTools: boolean;
  /** The Tasks extension (tools declared with `task`); undefined when no tool declares one. */
  readonly tasks: TaskSupport | undefined;
  /** The Skills extension's catalogue (SEP-2640); undefined when no module declares a skill. */
  readonly skills: CompiledSkills | undefined;
  /** The MCP Apps views (`ui://` resources); undefined when no module declares one. */
  readonly uiResources: CompiledUiResources | undefined;
  readonly listings: {
    readonly tools: { tools: CompiledTool['definition'][] };
    /**
     * tools/list for a client that renders no MCP Apps views: the same tools without `_meta.ui`, less the tools only a
     * view calls (MCP Apps § Graceful Degradation). The same object as `tools` when no tool has a view.
     */
    readonly textTools: { tools: CompiledTool['definition'][] };
    readonly resourceTemplates: { resourceTemplates: NonNullable<CompiledResource['templateListing']>[] };
    readonly prompts: { prompts: CompiledPrompt['listing'][] };
  };
}
