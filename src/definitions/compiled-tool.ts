// A tool as the runtime serves it: schemas converted, validators built and the wire definition frozen at boot.

import type { Tool as WireTool } from '@modelcontextprotocol/server';
import type { ScopeRequirement } from '../../decorators/scopes.js';
import type { DisabledMetadata, EnrichmentShape, EnrichmentTrailer } from '../../decorators/types.js';
import type { CompiledContract } from '../context/error-contract.js';
import type { CompiledConsent } from './compile-consent.js';
import type { HeaderParam } from './header-params.js';
import type { CompiledInput } from './input/index.js';
import type { CompiledOutput } from './schema/compile-output.js';
import type { JsonSchema } from './schema/json-schema.js';
import type { CompiledToolUi } from './ui/compiled-tool-ui.js';

export interface ToolFormatter {
  format(result: unknown): string | readonly { type: string }[];
}

export interface CompiledTool {
  readonly name: string;
  readonly toolClass: new (
    ...args: never[]
  ) => {
    handle(input: unknown, ctx: unknown): unknown;
    format?: ToolFormatter['format'];
  };
  /** The tools/list entry, identical on every request and both eras (less `_meta.ui` for clients without MCP Apps). */
  readonly definition: WireTool;
  readonly input: CompiledInput;
  /** Input properties mirrored into `Mcp-Param-*` headers (2026-07-28 HTTP), checked against the body per call. */
  readonly headerParams: readonly HeaderParam[];
  /** The output contract (output ∪ enrichment); undefined for content-only tools. */
  readonly output: CompiledOutput | undefined;
  readonly enrichmentKeys: readonly string[];
  readonly enrichmentTrailer: EnrichmentTrailer<EnrichmentShape>;
  /** The @Errors contract, with ctx.fail and ctx.recoveryFor built once. */
  readonly contract: CompiledContract;
  readonly advertisedOutputSchema: JsonSchema | undefined;
  readonly disabled: DisabledMetadata | undefined;
  /** The @RequiresConsent gate the handler runs behind; undefined for ungated tools. */
  readonly consent: CompiledConsent | undefined;
  /** The @Scopes a caller's token must carry; undefined when any caller may call it. */
  readonly scopes: ScopeRequirement | undefined;
  /** The MCP Apps view hosts render for this tool; undefined for tools without one. */
  readonly ui: CompiledToolUi | undefined;
  /** How the call runs as a task (the Tasks extension); undefined for a tool that never does. */
  readonly task: CompiledTaskSupport | undefined;
  /** How long results of calls with an idempotency key are kept; undefined when the tool takes no key. */
  readonly idempotency: { readonly ttlMs: number } | undefined;
  /** The cap on content[] (the tool's, else the app's); undefined for none. */
  readonly maxResultBytes: number | undefined;
}

export interface CompiledTaskSupport {
  readonly support: 'optional' | 'required';
  /** Who creates the task: Kiln before the handler runs, or the handler through `ctx.startTask()`. */
  readonly start: 'call' | 'handler';
}
