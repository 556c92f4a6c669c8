// completion/complete for prompt arguments and resource template variables, answered by the definition's own
// `complete()` method in a request scope, capped at the 100 values the spec allows.

import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/server';
import type { ScopeRequirement } from '../../decorators/scopes.js';
import type { ContextSeed } from '../context/create-context.js';
import { NO_CONTRACT } from '../context/error-contract.js';
import { insufficientScope, unmetScopes } from '../context/scope-check.js';
import { kilnError } from '../errors/factories.js';
import { runScopedHandler } from '../pipeline/scoped-handler.js';
import { type OperationLabel, traceOperation } from '../pipeline/traced-operation.js';
import { ATTR } from '../telemetry/semantic-names.js';
import type { ProtocolRuntime } from './protocol-runtime.js';

const MAX_COMPLETION_VALUES = 100;

type Completer = { complete?(name: string, value: string, context: { arguments: Record<string, string> }): unknown };

type CompletionSeed = Omit<ContextSeed, 'operation'>;

export function complete(
  runtime: ProtocolRuntime,
  params: CompleteRequest['params'],
  seed: CompletionSeed,
): Promise<CompleteResult> {
  const { telemetry } = runtime;
  if (telemetry === undefined) return completeOnce(runtime, params, seed);
  return traceOperation(telemetry, completionLabel(runtime, params), seed, (traced) =>
    completeOnce(runtime, params, traced),
  );
}

async function completeOnce(
  runtime: ProtocolRuntime,
  params: CompleteRequest['params'],
  seed: CompletionSeed,
): Promise<CompleteResult> {
  const { ref, argument } = params;
  const target = findCompletionTarget(runtime, ref);
  if (!target) {
    const what = ref.type === 'ref/prompt' ? `prompt ${ref.name}` : `resource template ${'uri' in ref ? ref.uri : ''}`;
    const reason = ref.type === 'ref/prompt' ? 'unknown_prompt' : 'unknown_resource';
    throw kilnError(reason, `Cannot complete: no ${what} is served here.`, { requestId: seed.requestId });
  }
  // Completions reveal what the prompt or resource holds, so they need the scopes reading it needs.
  const unmet = unmetScopes(target.scopes, seed.auth);
  if (unmet) {
    const error = insufficientScope(unmet, `Completing ${target.label}`);
    if (error.data) error.data.requestId = seed.requestId;
    throw error;
  }
  if (!target.completes) return { completion: { values: [], hasMore: false } };
  const handlerClass = target.handlerClass as new () => Completer;
  return runScopedHandler(
    runtime,
    { ...seed, operation: target.operation },
    handlerClass,
    NO_CONTRACT,
    async (handler) => {
      const values = (await handler.complete?.(argument.name, argument.value, {
        arguments: params.context?.arguments ?? {},
      })) as readonly string[] | undefined;
      const all = [...(values ?? [])];
      return {
        completion: {
          values: all.slice(0, MAX_COMPLETION_VALUES),
          total: all.length,
          hasMore: all.length > MAX_COMPLETION_VALUES,
        },
      };
    },
  );
}

function completionLabel(runtime: ProtocolRuntime, params: CompleteRequest['params']): OperationLabel {
  const target = findCompletionTarget(runtime, params.ref);
  return {
    method: 'completion/complete',
    target: target && [target.kind === 'prompt' ? ATTR.promptName : ATTR.resourceName, target.name],
    request: params.argument,
  };
}

interface CompletionTarget {
  readonly kind: 'prompt' | 'resource';
  readonly name: string;
  readonly handlerClass: new (...args: never[]) => unknown;
  readonly completes: boolean;
  readonly operation: string;
  readonly label: string;
  readonly scopes: ScopeRequirement | undefined;
}

/** The prompt or resource template a completion/complete reference names, if this app serves it. */
export function findCompletionTarget(
  runtime: Pick<ProtocolRuntime, 'prompts' | 'resources'>,
  ref: CompleteRequest['params']['ref'],
): CompletionTarget | undefined {
  if (ref.type === 'ref/prompt') {
    const prompt = runtime.prompts.get(ref.name);
    return (
      prompt && {
        kind: 'prompt',
        name: prompt.name,
        handlerClass: prompt.promptClass,
        completes: prompt.completes,
        operation: `complete prompt ${prompt.name}`,
        label: `prompt ${prompt.name}`,
        scopes: prompt.scopes,
      }
    );
  }
  const resource = runtime.resources.find((r) => r.uriTemplate === ref.uri);
  return (
    resource && {
      kind: 'resource',
      name: resource.name,
      handlerClass: resource.resourceClass,
      completes: resource.completes,
      operation: `complete resource ${resource.name}`,
      label: `resource ${resource.name}`,
      scopes: resource.scopes,
    }
  );
}
