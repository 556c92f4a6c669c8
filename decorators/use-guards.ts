// @UseGuards(...guards): classes that decide whether a call may run, on a tool, resource or prompt class, or on a
// @Module class (for the definitions it declares). Built through DI per request; src/pipeline/call-chain.ts runs them.
import type { Context } from '../src/context/context.js';
import { GUARDS_METADATA, prependMetadata } from './metadata-keys.js';
import type { OperationCall } from './operation-call.js';
import type { Constructor } from './types.js';

/**
 * Says whether a call may go ahead, before the handler (and any consent prompt) runs. `false` refuses it with the
 * `forbidden_by_guard` reason; throwing an McpError (`ctx.fail(...)`, `ctx.requireScopes(...)`) refuses it with that
 * error instead.
 */
export interface KilnGuard {
  canActivate(ctx: Context, call: OperationCall): boolean | Promise<boolean>;
}

export function UseGuards(...guards: readonly [Constructor<KilnGuard>, ...Constructor<KilnGuard>[]]) {
  return (target: Constructor): void => prependMetadata(GUARDS_METADATA, guards, target);
}
