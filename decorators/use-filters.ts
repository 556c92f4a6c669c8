// @UseFilters(...filters): classes that turn an error thrown by a guard, an interceptor or the handler into one of the
// definition's declared @Errors reasons, on a tool, resource or prompt class, or on a @Module class.
import type { HandlerContext } from '../src/context/context.js';
import type { McpError } from '../src/errors/mcp-error.js';
import { FILTERS_METADATA, prependMetadata } from './metadata-keys.js';
import type { OperationCall } from './operation-call.js';
import type { Constructor, ErrorContract } from './types.js';

/**
 * Maps an error to a declared reason: return (or throw) `ctx.fail('reason', ...)` for an error it knows, undefined
 * for one it leaves to the next filter. An error carrying a reason the definition's @Errors contract does not
 * declare is a server bug: the caller gets an internal error and the log says which filter returned what.
 * `KilnExceptionFilter<typeof MyErrors>` types `ctx.fail` from that contract.
 */
export interface KilnExceptionFilter<E extends ErrorContract = ErrorContract> {
  catch(
    error: unknown,
    ctx: HandlerContext<E>,
    call: OperationCall,
  ): McpError | undefined | Promise<McpError | undefined>;
}

export function UseFilters(
  ...filters: readonly [Constructor<KilnExceptionFilter>, ...Constructor<KilnExceptionFilter>[]]
) {
  return (target: Constructor): void => prependMetadata(FILTERS_METADATA, filters, target);
}
