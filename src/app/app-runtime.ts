// Everything a compiled app serves from: the root container, the compiled definitions and their precomputed
// list results. Built once at boot; read-only afterwards, shared by every request and transport.
import type { Implementation, ServerCapabilities, ServerOptions } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import type { ContextServices } from '../context/create-context.js';
import type { CompiledPrompt, CompiledResource } from '../definitions/compiled-resource.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import type { Logger } from '../logging/index.js';
import type { RequestStateSealing } from '../protocol/request-state-sealing.js';
import type { ChangeNotifier } from './change-notifier.js';
import type { InFlightRequests } from './in-flight-requests.js';

export interface KilnRuntime {
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  readonly capabilities: ServerCapabilities;
  /** Server-wide 2026-07-28 cache hints, by method. */
  readonly cacheHints: ServerOptions['cacheHints'];
  readonly container: DependencyContainer;
  readonly services: ContextServices;
  readonly logger: Logger;
  /** Requests being served, for graceful shutdown. */
  readonly inFlight: InFlightRequests;
  /** List-changed and resource-updated notifications, in and out of requests. */
  readonly notifier: ChangeNotifier;
  /** Seals and verifies requestState when MCP_REQUEST_STATE_KEY is set; undefined leaves it raw. */
  readonly requestStateSealing: RequestStateSealing | undefined;
  /** Callable tools by name (disabled tools are not here). */
  readonly tools: ReadonlyMap<string, CompiledTool>;
  /** Every tool, disabled ones included, for the manifest and landing page. */
  readonly manifestTools: readonly CompiledTool[];
  readonly resources: readonly CompiledResource[];
  readonly prompts: ReadonlyMap<string, CompiledPrompt>;
  readonly listings: {
    readonly tools: { tools: CompiledTool['definition'][] };
    readonly resourceTemplates: { resourceTemplates: NonNullable<CompiledResource['templateListing']>[] };
    readonly prompts: { prompts: CompiledPrompt['listing'][] };
  };
}
