// @Errors(contract): the tool's declared failure modes. `ctx.fail` is typed from the same const tuple through
// `HandlerContext<typeof Contract>`.
import { defineMetadata, ERRORS_METADATA } from './metadata-keys.js';
import type { Constructor, ErrorContract } from './types.js';

export function Errors(contract: ErrorContract): (target: Constructor) => void {
  return (target) => defineMetadata(ERRORS_METADATA, contract, target);
}
