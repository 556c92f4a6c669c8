// prompts/get: validate the string arguments, run the prompt in its request scope, normalise its messages (or answer
// with the input_required round it asked for).
import type { GetPromptResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { PromptMessage, PromptReturn } from '../../decorators/prompt.js';
import { insufficientScope } from '../context/scope-check.js';
import type { CompiledPrompt } from '../definitions/compiled-resource.js';
import { kilnError } from '../errors/factories.js';
import { chainOf, runChain } from './call-chain.js';
import { canonicalJson, markedHit } from './call-policy.js';
import { orInputRequired, unanswerableRound } from './input-round.js';
import type { OperationKind, OperationSeed } from './operation-kind.js';
import { type PipelineRuntime, runScopedHandler } from './scoped-handler.js';

/** prompts/get: find a prompt by name, run one round; a direct get cannot answer a round, so it fails. */
export const PROMPT_OPERATION: OperationKind<CompiledPrompt, Record<string, unknown> | undefined, GetPromptResult> = {
  method: 'prompts/get',
  targetName: (prompt) => prompt.name,
  find: (runtime, name) => runtime.prompts.get(name),
  unknown: (name) => kilnError('unknown_prompt', `Unknown prompt: ${name}.`),
  round: (runtime, prompt, args, seed) => getPromptRound(runtime, prompt, args, seed),
  unanswerable: (round, prompt) => {
    throw unanswerableRound(round, `prompt ${prompt.name}`);
  },
  scopes: (prompt) => prompt.scopes,
  definition: (prompt) => prompt.promptClass,
  policyCall: (prompt, args) => ({
    method: 'prompts/get',
    name: prompt.name,
    cacheKey: () => {
      if (!prompt.args) return canonicalJson(args ?? {});
      const parsed = prompt.args.safeParse(args ?? {});
      return parsed.success ? canonicalJson(parsed.data) : undefined;
    },
    cacheable: () => true,
    fromCache: (result, _cache, _ttlMs, hit) => (hit ? markedHit(result) : result),
  }),
  refused: (requiredScopes, prompt, seed) => {
    const error = insufficientScope(requiredScopes, `Prompt ${prompt.name}`);
    if (error.data) error.data.requestId = seed.requestId;
    throw error;
  },
};

/** One round of prompts/get as a protocol server answers it: the messages, or the input_required the prompt asked for. */
async function getPromptRound(
  runtime: PipelineRuntime,
  prompt: CompiledPrompt,
  rawArgs: Record<string, unknown> | undefined,
  seed: OperationSeed,
): Promise<GetPromptResult | InputRequiredResult> {
  let args: unknown = rawArgs ?? {};
  if (prompt.args) {
    const parsed = prompt.args.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      throw kilnError(
        'invalid_arguments',
        `Invalid arguments for prompt ${prompt.name}: ${z.prettifyError(parsed.error)}`,
        {
          recovery: { hint: `Call prompts/list to see the arguments ${prompt.name} takes, then call again.` },
          requestId: seed.requestId,
        },
      );
    }
    args = parsed.data;
  }
  const operation = `prompt ${prompt.name}`;
  const { promptClass, contract } = prompt;
  return runScopedHandler(runtime, { ...seed, operation }, promptClass, contract, (handler, context, scope) =>
    orInputRequired(async () => {
      const returned = await runChain(
        chainOf(runtime, promptClass),
        () => handler.handle(args, context),
        () => ({
          resolve: scope.resolve,
          ctx: context,
          call: { kind: 'prompt', name: prompt.name, definition: promptClass, input: args, scopes: prompt.scopes },
          contract: contract.entries,
          label: `Prompt ${prompt.name}`,
        }),
      );
      return normalisePrompt(returned as PromptReturn, prompt.description);
    }, seed.sealRequestState),
  );
}

function normalisePrompt(returned: PromptReturn, description: string): GetPromptResult {
  if (typeof returned === 'string') {
    return { description, messages: [{ role: 'user', content: { type: 'text', text: returned } }] };
  }
  if (Array.isArray(returned))
    return { description, messages: [...(returned as PromptMessage[])] as GetPromptResult['messages'] };
  const shaped = returned as { description?: string; messages: readonly PromptMessage[] };
  return {
    description: shaped.description ?? description,
    messages: [...shaped.messages] as GetPromptResult['messages'],
  };
}
