// prompts/get: validate the string arguments, run the prompt in its request scope, normalise its messages (or answer
// with the input_required round it asked for).
import { type GetPromptResult, type InputRequiredResult, isInputRequiredResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { PromptMessage, PromptReturn } from '../../decorators/prompt.js';
import type { ContextSeed } from '../context/create-context.js';
import type { CompiledPrompt } from '../definitions/compiled-resource.js';
import { invalidParams } from '../errors/index.js';
import { orInputRequired, unanswerableRound } from './input-round.js';
import { runScopedHandler } from './scoped-handler.js';
import type { PipelineRuntime } from './tool-pipeline.js';

/** A direct get (no client): a round the prompt asks for is a failure, since nothing can answer it. */
export async function getPrompt(
  runtime: PipelineRuntime,
  prompt: CompiledPrompt,
  rawArgs: Record<string, unknown> | undefined,
  seed: Omit<ContextSeed, 'operation'>,
): Promise<GetPromptResult> {
  const answer = await getPromptRound(runtime, prompt, rawArgs, seed);
  if (isInputRequiredResult(answer)) throw unanswerableRound(answer, `prompt ${prompt.name}`);
  return answer;
}

/** One round of prompts/get as a protocol server answers it: the messages, or the input_required the prompt asked for. */
export async function getPromptRound(
  runtime: PipelineRuntime,
  prompt: CompiledPrompt,
  rawArgs: Record<string, unknown> | undefined,
  seed: Omit<ContextSeed, 'operation'>,
): Promise<GetPromptResult | InputRequiredResult> {
  let args: unknown = rawArgs ?? {};
  if (prompt.args) {
    const parsed = prompt.args.strict().safeParse(rawArgs ?? {});
    if (!parsed.success) {
      throw invalidParams(`Invalid arguments for prompt ${prompt.name}: ${z.prettifyError(parsed.error)}`, {
        reason: 'invalid_arguments',
        recovery: { hint: `Call prompts/list to see the arguments ${prompt.name} takes, then call again.` },
        requestId: seed.requestId,
      });
    }
    args = parsed.data;
  }
  const operation = `prompt ${prompt.name}`;
  return runScopedHandler(runtime, { ...seed, operation }, prompt.promptClass, prompt.contract, (handler, context) =>
    orInputRequired(
      async () => normalisePrompt(await handler.handle(args, context), prompt.description),
      seed.sealRequestState,
    ),
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
