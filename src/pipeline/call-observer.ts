// How each tools/call, resources/read and prompts/get ended, told to whoever observes calls (the audit trail, usage
// accounting) once the answer is ready. Observers run after the answer is settled and their failures are swallowed
// here, so nothing an observer does can change or fail the call.
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { OperationKind, OperationRuntime, OperationSeed } from './operation-runner.js';
import { type Ending, failureEnding, resultEnding } from './traced-operation.js';

export interface CallObservation {
  readonly method: 'tools/call' | 'resources/read' | 'prompts/get';
  /** What the call named: a tool or prompt name, a resource URI. */
  readonly key: string;
  /** The served definition's name; undefined when the call named nothing this app serves. */
  readonly name: string | undefined;
  readonly seed: OperationSeed;
  readonly args: unknown;
  readonly ending: Ending;
  /** When the call arrived (epoch ms) and how long it took. */
  readonly startedAt: number;
  readonly durationMs: number;
}

export type CallObserver = (observation: CallObservation) => void;

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
