// expectInputRequired: runs a handler that should suspend on ctx.requestInput and hands back what it asked, so a test
// can assert the round and seed the next one (`createMockContext({ inputResponses, requestState })`).
import type { InputRequests } from '@modelcontextprotocol/server';
import { InputRequiredSignal } from '../context/request-input.js';

/** What one round asked of the caller. */
export interface AskedInput {
  readonly inputRequests: InputRequests | undefined;
  readonly requestState: string | undefined;
}

/**
 * Resolves with the round `run` asked for; rejects when it returned instead, or threw anything else (a
 * `client_capability_missing` refusal included), with that error as the cause.
 */
export async function expectInputRequired(run: () => unknown): Promise<AskedInput> {
  let returned: unknown;
  try {
    returned = await run();
  } catch (error) {
    if (error instanceof InputRequiredSignal) {
      return { inputRequests: error.result.inputRequests, requestState: error.result.requestState };
    }
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new Error(`expectInputRequired: the handler threw ${what} instead of asking for input.`, { cause: error });
  }
  throw new Error(`expectInputRequired: the handler returned ${describe(returned)} instead of asking for input.`);
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
