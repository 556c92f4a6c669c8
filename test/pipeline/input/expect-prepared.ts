// Narrows a prepareArguments result for a test, failing with the other branch's details when it is the wrong one.
import type { InputRejection, PreparedArguments, PreparedInput } from '../../../src/pipeline/input/index.js';

export function expectAccepted<TOutput>(result: PreparedArguments<TOutput>): PreparedInput<TOutput> {
  if (!result.ok) throw new Error(`expected the arguments to be accepted, got: ${result.message}`);
  return result;
}

export function expectRejected<TOutput>(result: PreparedArguments<TOutput>): InputRejection {
  if (result.ok) throw new Error(`expected a rejection, got: ${JSON.stringify(result.value)}`);
  return result;
}
