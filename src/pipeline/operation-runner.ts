// The one operation runner behind tools/call, resources/read and prompts/get, for protocol handlers and direct calls
// alike: find the definition (or answer the kind's unknown_* error) → check its @Scopes against the caller's → run one
// round → answer. A direct call has no client to answer an input_required round, so each kind says what it answers.
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { ScopeRequirement } from '../../decorators/scopes.js';
import type { ContextSeed } from '../context/create-context.js';
import { unmetScopes } from '../context/scope-check.js';
import type { CompiledPrompt, CompiledResource } from '../definitions/compiled-resource.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import type { McpError } from '../errors/index.js';
import { type CallObserver, observed } from './call-observer.js';
import { type PolicyCall, type PolicyRuntime, runWithPolicy } from './call-policy.js';
import type { PipelineRuntime } from './scoped-handler.js';
import { traceRound } from './traced-operation.js';

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

/** One round as a protocol server answers it: the result, or the input_required round the handler asked for. */
export function runOperation<Target, Args, Result>(
  kind: OperationKind<Target, Args, Result>,
  runtime: OperationRuntime,
  key: string,
  args: Args,
  seed: OperationSeed,
): Promise<Result | InputRequiredResult> {
  // Telemetry (a span, duration and size metrics) around the round when an OpenTelemetry SDK is registered.
  const { observeCall } = runtime;
  if (!observeCall) return traceRound(kind, runtime, key, args, seed, runRound);
  return observed(observeCall, kind, runtime, key, args, seed, () =>
    traceRound(kind, runtime, key, args, seed, runRound),
  );
}

function runRound<Target, Args, Result>(
  kind: OperationKind<Target, Args, Result>,
  runtime: OperationRuntime,
  key: string,
  args: Args,
  seed: OperationSeed,
): Promise<Result | InputRequiredResult> {
  const target = kind.find(runtime, key);
  if (target === undefined) {
    const error = kind.unknown(key);
    if (error.data) error.data.requestId = seed.requestId;
    return Promise.reject(error);
  }
  // Before any handler runs, so a refused call has no effect (HTTP refuses it earlier still, with a 403 challenge).
  const unmet = unmetScopes(kind.scopes(target), seed.auth);
  if (unmet) {
    try {
      return Promise.resolve(kind.refused(unmet, target, seed));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const policy = runtime.policies?.byDefinition.get(kind.definition(target));
  if (policy) {
    return runWithPolicy(
      runtime,
      runtime.policies as PolicyRuntime,
      policy,
      kind.policyCall(target, args, seed),
      seed,
      (counted) => kind.round(runtime, target, args, counted),
    );
  }
  return kind.round(runtime, target, args, seed);
}

/** A direct call (scripts, the testing kit): the full pipeline, with no client to answer an input round. */
export async function runDirect<Target, Args, Result>(
  kind: OperationKind<Target, Args, Result>,
  runtime: OperationRuntime,
  key: string,
  args: Args,
  seed: OperationSeed,
): Promise<Result> {
  const answer = await runOperation(kind, runtime, key, args, seed);
  if (!isInputRequiredResult(answer)) return answer as Result;
  // runOperation found the target, or it would have rejected.
  return kind.unanswerable(answer, kind.find(runtime, key) as Target, seed);
}
