// How each tools/call, resources/read and prompts/get ended, told to whoever observes calls (the audit trail, usage
// accounting) once the answer is ready. Observers run after the answer is settled and their failures are swallowed
// here, so nothing an observer does can change or fail the call.
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import { type Ending, failureEnding, resultEnding } from './call-ending.js';
import type { CallObserver, OperationKind, OperationRuntime, OperationSeed } from './operation-kind.js';

export function observed<Target, Args, Result>(
  observe: CallObserver,
  kind: OperationKind<Target, Args, Result>,
  runtime: OperationRuntime,
  key: string,
  args: Args,
  seed: OperationSeed,
  run: () => Promise<Result | InputRequiredResult>,
): Promise<Result | InputRequiredResult> {
  const startedAt = Date.now();
  const started = performance.now();
  let answer: Promise<Result | InputRequiredResult>;
  try {
    answer = run();
  } catch (error) {
    answer = Promise.reject(error);
  }
  const tell = (ending: Ending) => {
    const found = kind.find(runtime, key);
    try {
      observe({
        method: kind.method,
        key,
        name: found === undefined ? undefined : kind.targetName(found),
        seed,
        args,
        ending,
        startedAt,
        durationMs: performance.now() - started,
      });
    } catch (error) {
      runtime.logger.warning({ err: error, requestId: seed.requestId }, 'A call observer failed');
    }
  };
  return answer.then(
    (result) => {
      tell(resultEnding(result));
      return result;
    },
    (error: unknown) => {
      tell(failureEnding(error));
      throw error;
    },
  );
}
