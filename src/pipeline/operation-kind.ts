// The shapes the operation runner works with: the runtime it finds definitions in, the seed of a call, and what each
// kind of operation (tools/call, resources/read, prompts/get) tells it. Types only, so the runner, its tracing and
// its observers can share them without importing each other.
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { ScopeRequirement } from '../../decorators/scopes.js';
import type { ContextSeed } from '../context/create-context.js';
import type { CompiledPrompt, CompiledResource } from '../definitions/compiled-resource.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import type { McpError } from '../errors/mcp-error.js';
import type { Ending } from './call-ending.js';
import type { PolicyCall, PolicyRuntime } from './call-policy.js';
import type { PipelineRuntime } from './scoped-handler.js';

/** The compiled definitions operations are found in. */
export interface OperationRuntime extends PipelineRuntime {
  readonly tools: ReadonlyMap<string, CompiledTool>;
  readonly resources: readonly CompiledResource[];
  readonly prompts: ReadonlyMap<string, CompiledPrompt>;
  /** Rate limits, quotas and caches per definition class; absent when the app declares none. */
  readonly policies?: PolicyRuntime;
  /** Hears how every call ended (the audit trail, usage accounting); absent when neither is on. */
  readonly observeCall?: CallObserver;
}

/** A seed before the operation is known: the runner names it once the definition is found. */
export type OperationSeed = Omit<ContextSeed, 'operation' | 'uri'>;

export interface OperationKind<Target, Args, Result> {
  /** The MCP method this kind serves: the operation span's name and `mcp.method.name`. */
  readonly method: 'tools/call' | 'resources/read' | 'prompts/get';
  /** The definition's name (a tool's, prompt's or resource's), for span names and metric attributes. */
  targetName(target: Target): string;
  /** The definition `key` names (a tool or prompt name, a resource URI), if this app serves one. */
  find(runtime: OperationRuntime, key: string): Target | undefined;
  /** The error for a key that names nothing; the runner adds the requestId. */
  unknown(key: string): McpError;
  round(
    runtime: OperationRuntime,
    target: Target,
    args: Args,
    seed: OperationSeed,
  ): Promise<Result | InputRequiredResult>;
  /** A direct call's answer to a round it cannot fulfil: a result (tools) or a thrown error. */
  unanswerable(round: InputRequiredResult, target: Target, seed: OperationSeed): Result;
  /** The definition's class, which call policies are compiled for. */
  definition(target: Target): abstract new (...args: never[]) => unknown;
  /** How call policies (src/pipeline/call-policy.ts) see a call of `target`. */
  policyCall(target: Target, args: Args, seed: OperationSeed): PolicyCall<Result>;
  /** The @Scopes a caller must hold for `target`; undefined when any caller may. */
  scopes(target: Target): ScopeRequirement | undefined;
  /** The answer to a caller whose token lacks `requiredScopes`: an error result (tools) or a thrown error. */
  refused(requiredScopes: readonly string[], target: Target, seed: OperationSeed): Result;
}

/** How one call ended, as the audit trail and usage accounting hear it. */
export interface CallObservation {
  readonly method: 'tools/call' | 'resources/read' | 'prompts/get';
  /** What the call named: a tool or prompt name, a resource URI. */
  readonly key: string;
  /** The served definition's name; undefined when the call named nothing this app serves. */
  readonly name: string | undefined;
  readonly seed: OperationSeed;
  readonly args: unknown;
  readonly ending: Ending;
  /** When the call arrived (epoch ms) and how long it took. */
  readonly startedAt: number;
  readonly durationMs: number;
}

export type CallObserver = (observation: CallObservation) => void;
