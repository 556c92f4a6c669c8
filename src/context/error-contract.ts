// ctx.fail and ctx.recoveryFor: failures built from a tool's @Errors contract, so the code on the wire is always
// the one the contract declares and the recovery hint follows the reason.
import type { ErrorContract, ErrorContractEntry } from '../../decorators/types.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { McpError } from '../errors/mcp-error.js';

export type Recovery = { readonly recovery: { readonly hint: string } };

export type TypedFail<R extends string> = (
  reason: R,
  message?: string,
  data?: Readonly<Record<string, unknown>>,
  options?: { cause?: unknown },
) => McpError;

export function createFail(contract: ErrorContract): TypedFail<string> {
  return (reason, message, data, options) => {
    const entry = findEntry(contract, reason);
    if (!entry) {
      return new McpError(
        JsonRpcErrorCode.InternalError,
        `ctx.fail was called with undeclared reason "${reason}".`,
        { ...data, reason, declaredReasons: contract.map((e) => e.reason) },
        options,
      );
    }
    // Caller data first, reason last: observers always see the contract's identifier.
    return new McpError(entry.code, message ?? entry.when, { ...data, reason: entry.reason }, options);
  };
}

export function createRecoveryFor(contract: ErrorContract): (reason: string) => Recovery | Record<string, never> {
  return (reason) => {
    const entry = findEntry(contract, reason);
    if (!entry) return {} as Record<string, never>;
    return { recovery: { hint: entry.recovery } };
  };
}

/** A contract with its ctx.fail and ctx.recoveryFor built once, when the definition is compiled. */
export interface CompiledContract {
  readonly entries: ErrorContract;
  readonly fail: TypedFail<string>;
  readonly recoveryFor: (reason: string) => Recovery | Record<string, never>;
}

export function compileContract(entries: ErrorContract = []): CompiledContract {
  return { entries, fail: createFail(entries), recoveryFor: createRecoveryFor(entries) };
}

/** For handlers that declare no contract (completions, listings). */
export const NO_CONTRACT: CompiledContract = compileContract([]);

export function findEntry(contract: ErrorContract, reason: string | undefined): ErrorContractEntry | undefined {
  return reason === undefined ? undefined : contract.find((entry) => entry.reason === reason);
}
