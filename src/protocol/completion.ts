// completion/complete for prompt arguments and resource template variables, answered by the definition's own
// `complete()` method in a request scope, capped at the 100 values the spec allows.

import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/server';
import type { ContextSeed } from '../context/create-context.js';
import { NO_CONTRACT } from '../context/error-contract.js';
import { kilnError } from '../errors/index.js';
import { runScopedHandler } from '../pipeline/scoped-handler.js';
import type { ProtocolRuntime } from './protocol-runtime.js';

const MAX_COMPLETION_VALUES = 100;

type Completer = { complete?(name: string, value: string, context: { arguments: Record<string, string> }): unknown };

export async function complete(
  runtime: ProtocolRuntime,
  params: CompleteRequest['params'],
  seed: Omit<ContextSeed, 'operation'>,
): Promise<CompleteResult> {
  const { ref, argument } = params;
  const target = findTarget(runtime, ref);
  if (!target) {
    const what = ref.type === 'ref/prompt' ? `prompt ${ref.name}` : `resource template ${'uri' in ref ? ref.uri : ''}`;
    const reason = ref.type === 'ref/prompt' ? 'unknown_prompt' : 'unknown_resource';
    throw kilnError(reason, `Cannot complete: no ${what} is served here.`, { requestId: seed.requestId });
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

function findTarget(runtime: ProtocolRuntime, ref: CompleteRequest['params']['ref']) {
  if (ref.type === 'ref/prompt') {
    const prompt = runtime.prompts.get(ref.name);
    return (
      prompt && {
        handlerClass: prompt.promptClass,
        completes: prompt.completes,
        operation: `complete prompt ${prompt.name}`,
      }
    );
  }
  const resource = runtime.resources.find((r) => r.uriTemplate === ref.uri);
  return (
    resource && {
      handlerClass: resource.resourceClass,
      completes: resource.completes,
      operation: `complete resource ${resource.name}`,
    }
  );
}
