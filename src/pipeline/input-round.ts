// ctx.requestInput as the runners see it: in a tool call, resource read or prompt get the signal becomes the round's
// input_required result, never a failure (no error log, no isError). Direct calls have no client to answer a round.
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { ContextSeed } from '../context/create-context.js';
import { InputRequiredSignal } from '../context/request-input.js';
import { kilnError } from '../errors/factories.js';
import { type McpError } from '../errors/mcp-error.js';

/** What `work` returns, or the input_required result its handler asked for, its requestState sealed by `seal`. */
export async function orInputRequired<T>(
  work: () => Promise<T>,
  seal: ContextSeed['sealRequestState'],
): Promise<T | InputRequiredResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InputRequiredSignal) return sealedRound(error.result, seal);
    throw error;
  }
}

/**
 * The round as it goes on the wire: with sealing on, the handler's plain requestState replaced by its sealed form,
 * which the SDK verifies and unwraps before the retry reaches the handler again.
 */
export async function sealedRound(
  round: InputRequiredResult,
  seal: ContextSeed['sealRequestState'],
): Promise<InputRequiredResult> {
  if (seal === undefined || round.requestState === undefined) return round;
  return { ...round, requestState: await seal(round.requestState) };
}

/**
 * The failure a direct call (KilnApp.callTool, readResource, getPrompt) answers with when its handler asks for input:
 * there is no client to fulfil the round, so what it asked is reported instead.
 */
export function unanswerableRound(round: InputRequiredResult, operation: string): McpError {
  const keys = Object.keys(round.inputRequests ?? {});
  const what = keys.length > 0 ? ` (${keys.map((key) => `'${key}'`).join(', ')})` : '';
  return kilnError(
    'input_required',
    `${operation} asked the caller for input${what}, and a direct call has no client to answer it.`,
    {
      ...(round.inputRequests ? { inputRequests: round.inputRequests } : {}),
      ...(round.requestState !== undefined ? { requestState: round.requestState } : {}),
      recovery: {
        hint: 'Call it through a connected client (TestingApp.connectClient), or call the handler with createMockContext({ inputResponses }).',
      },
    },
  );
}
