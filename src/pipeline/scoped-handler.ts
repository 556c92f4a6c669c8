// The one place a request's Context and child container are opened: Context → request scope → handler, the scope
// disposed whatever happens. Tools read the collectors back; resources, prompts and completions answer failures
// as JSON-RPC errors (runScopedHandler).
import type { Constructor } from '../../decorators/types.js';
import { isAborted } from '../context/call-cancellation.js';
import type { Context } from '../context/context.js';
import { type BuiltContext, type ContextSeed, type ContextServices, createContext } from '../context/create-context.js';
import type { CompiledContract } from '../context/error-contract.js';
import type { RequestScope, RequestScopes } from '../di/request-scope.js';
import type { Logger } from '../logging/index.js';
import type { ActiveTelemetry } from '../telemetry/kiln-telemetry.js';
import type { CallChain } from './call-chain.js';
import { toProtocolFailure } from './handler-failure.js';

/** What running a handler needs from the compiled app. */
export interface PipelineRuntime {
  /** Opens each request's scope (src/di/request-scope.ts), compiled once the root container was built. */
  readonly requestScopes: RequestScopes;
  readonly services: ContextServices;
  readonly logger: Logger;
  /** Guards, interceptors and filters per definition class, compiled at boot; a class not listed has none. */
  readonly callChains?: ReadonlyMap<Constructor, CallChain>;
  /** Present only when an OpenTelemetry SDK is registered: spans and metrics for each operation. */
  readonly telemetry?: ActiveTelemetry;
}

/** Runs `run` with the handler resolved in a fresh request scope; failures propagate as thrown. */
export async function inRequestScope<H, T>(
  runtime: PipelineRuntime,
  seed: ContextSeed,
  handlerClass: Constructor<H>,
  contract: CompiledContract,
  run: (handler: H, built: BuiltContext, scope: RequestScope) => T | Promise<T>,
): Promise<T> {
  const built = createContext(seed, runtime.services, contract);
  const scope = runtime.requestScopes.open(built.context);
  try {
    return await run(scope.resolve(handlerClass), built, scope);
  } finally {
    const disposing = scope.dispose();
    if (disposing) await disposing;
  }
}

/** inRequestScope for handlers whose failures are JSON-RPC errors (resources, prompts, completions, listings). */
export async function runScopedHandler<H, T>(
  runtime: PipelineRuntime,
  seed: ContextSeed,
  handlerClass: Constructor<H>,
  contract: CompiledContract,
  run: (handler: H, context: Context, scope: RequestScope) => T | Promise<T>,
): Promise<T> {
  try {
    return await inRequestScope(runtime, seed, handlerClass, contract, (handler, built, scope) =>
      run(handler, built.context, scope),
    );
  } catch (error) {
    throw toProtocolFailure(error, {
      requestId: seed.requestId,
      contract: contract.entries,
      operation: seed.operation,
      logger: runtime.logger,
      cancelled: isAborted(seed.signal),
    });
  }
}
