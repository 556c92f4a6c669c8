// @UseInterceptors(...interceptors): classes that wrap the handler call (timing, caching, retries, result mapping), on
// a tool, resource or prompt class, or on a @Module class. Built through DI per request.
import type { Context } from '../src/context/context.js';
import { INTERCEPTORS_METADATA, prependMetadata } from './metadata-keys.js';
import type { OperationCall } from './operation-call.js';
import type { Constructor } from './types.js';

/** The rest of the chain: the next interceptor, or the handler itself. Each `handle()` runs it again. */
export interface CallHandler {
  handle(): Promise<unknown>;
}

/**
 * Runs around the handler: return `next.handle()` (or a value mapped from it), call it again to retry, or return
 * without calling it to skip the handler. What it returns is what the handler returned, as far as the framework
 * is concerned: a tool's output schema still checks it. A handler's request for input arrives as a thrown signal
 * that an interceptor must let through.
 */
export interface KilnInterceptor {
  intercept(ctx: Context, call: OperationCall, next: CallHandler): unknown;
}

export function UseInterceptors(
  ...interceptors: readonly [Constructor<KilnInterceptor>, ...Constructor<KilnInterceptor>[]]
) {
  return (target: Constructor): void => prependMetadata(INTERCEPTORS_METADATA, interceptors, target);
}
