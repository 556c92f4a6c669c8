// The one operation runner behind tools/call, resources/read and prompts/get, for protocol handlers and direct calls
// alike: find the definition (or answer the kind's unknown_* error) → check its @Scopes against the caller's → run one
// round → answer. A direct call has no client to answer an input_required round, so each kind says what it answers.
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { unmetScopes } from '../context/scope-check.js';
import { observed } from './call-observer.js';
import { type PolicyRuntime, runWithPolicy } from './call-policy.js';
import type { OperationKind, OperationRuntime, OperationSeed } from './operation-kind.js';
import { traceRound } from './traced-operation.js';

export type { OperationKind, OperationRuntime, OperationSeed } from './operation-kind.js';

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
