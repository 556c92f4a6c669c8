// Runs a resource, prompt or completion handler: Context → the request's child container → handler, with failures
// answered as JSON-RPC errors and the scope disposed whatever happens.
import type { Constructor, ErrorContract } from '../../decorators/types.js';
import type { Context } from '../context/context.js';
import { type ContextSeed, createContext } from '../context/create-context.js';
import { openRequestScope } from '../di/request-scope.js';
import { toProtocolFailure } from './handler-failure.js';
import type { PipelineRuntime } from './tool-pipeline.js';

export async function runScopedHandler<H, T>(
  runtime: PipelineRuntime,
  seed: ContextSeed,
  handlerClass: Constructor<H>,
  contract: ErrorContract,
  run: (handler: H, context: Context) => T | Promise<T>,
): Promise<T> {
  const { context } = createContext(seed, runtime.services, contract);
  const scope = openRequestScope(runtime.container, context);
  try {
    return await run(scope.resolve(handlerClass), context);
  } catch (error) {
    throw toProtocolFailure(error, {
      requestId: seed.requestId,
      contract,
      operation: seed.operation,
      logger: runtime.logger,
    });
  } finally {
    await scope.dispose();
  }
}
