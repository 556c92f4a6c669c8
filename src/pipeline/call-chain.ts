// Guards → consent gate (tools) → interceptors → handler, with exception filters over all of it. The chain of a
// definition is compiled once at boot (src/app/compile-call-chains.ts) and run inside its request scope, so every part
// is built through DI for this request and may inject the Context. A definition with none runs its handler directly.
import type { OperationCall } from '../../decorators/operation-call.js';
import type { Constructor, ErrorContract } from '../../decorators/types.js';
import type { KilnExceptionFilter } from '../../decorators/use-filters.js';
import type { KilnGuard } from '../../decorators/use-guards.js';
import type { KilnInterceptor } from '../../decorators/use-interceptors.js';
import type { Context, HandlerContext } from '../context/context.js';
import { findEntry } from '../context/error-contract.js';
import { InputRequiredSignal } from '../context/request-input.js';
import { kilnError } from '../errors/factories.js';
import { isProtocolError } from '../errors/mcp-error.js';

/** What runs around one definition's handler, in running order (filters: the first to answer wins). */
export interface CallChain {
  readonly guards: readonly Constructor<KilnGuard>[];
  readonly interceptors: readonly Constructor<KilnInterceptor>[];
  readonly filters: readonly Constructor<KilnExceptionFilter>[];
}

/** The chain of every definition nothing decorates: runChain then adds nothing to the handler call. */
export const EMPTY_CHAIN: CallChain = Object.freeze({ guards: [], interceptors: [], filters: [] });

/** One call through a chain. */
export interface ChainCall {
  /** Builds a part in the request's child container. */
  readonly resolve: <T>(part: Constructor<T>) => T;
  readonly ctx: Context;
  readonly call: OperationCall;
  /** The reasons an exception filter may map to. */
  readonly contract: ErrorContract;
  /** Names the definition in errors: `Tool notes_delete`. */
  readonly label: string;
}

/** What runs between the guards and the interceptors (the consent gate), given the rest of the chain. */
export type ChainGate = (inner: () => Promise<unknown>) => Promise<unknown>;

/**
 * Runs `handle` through `chain`. `describe` is called only for a chain with parts, so a definition nothing decorates
 * pays for no description of its call.
 */
export async function runChain(
  chain: CallChain,
  handle: () => unknown,
  describe: () => ChainCall,
  gate?: ChainGate,
): Promise<unknown> {
  const inner = async () => handle();
  if (chain === EMPTY_CHAIN) return gate ? gate(inner) : handle();
  const run = describe();
  try {
    for (const Guard of chain.guards) {
      // Only `true` lets the call through: a guard that forgets to return refuses rather than allows.
      if ((await run.resolve(Guard).canActivate(run.ctx, run.call)) !== true) {
        throw kilnError('forbidden_by_guard', `${run.label} was refused by ${Guard.name}.`, { guard: Guard.name });
      }
    }
    const intercepted = intercept(chain.interceptors, run, inner);
    return await (gate ? gate(intercepted) : intercepted());
  } catch (error) {
    // Asking for input is not a failure, so no filter sees it.
    if (error instanceof InputRequiredSignal || chain.filters.length === 0) throw error;
    throw await filtered(chain.filters, error, run);
  }
}

/** The interceptors folded around `handle`, the first outermost; each built once per call, not once per retry. */
function intercept(
  interceptors: CallChain['interceptors'],
  run: ChainCall,
  handle: () => Promise<unknown>,
): () => Promise<unknown> {
  let next = handle;
  for (let index = interceptors.length - 1; index >= 0; index--) {
    const interceptor = run.resolve(interceptors[index] as Constructor<KilnInterceptor>);
    const rest = { handle: next };
    next = async () => interceptor.intercept(run.ctx, run.call, rest);
  }
  return next;
}

/** What the first filter that answers makes of `error`; `error` itself when none does. */
async function filtered(filters: CallChain['filters'], error: unknown, run: ChainCall): Promise<unknown> {
  for (const Filter of filters) {
    let mapped: unknown;
    try {
      // The request's Context carries the definition's ctx.fail; the filter's own type narrows its reasons.
      const ctx = run.ctx as unknown as HandlerContext<ErrorContract>;
      mapped = await run.resolve(Filter).catch(error, ctx, run.call);
    } catch (thrown) {
      mapped = thrown;
    }
    if (mapped === undefined) continue;
    const reason = isProtocolError(mapped) ? (mapped.data as { reason?: unknown } | undefined)?.reason : undefined;
    if (typeof reason === 'string' && findEntry(run.contract, reason)) return mapped;
    // A server bug, not the caller's: a plain Error is masked on the wire and logged in full.
    const declared = run.contract.map((entry) => entry.reason);
    return new Error(
      `Exception filter ${Filter.name} of ${run.label} answered ${describe(mapped, reason)}, which is not a reason ` +
        `its @Errors contract declares (${declared.length > 0 ? declared.join(', ') : 'it declares none'}). ` +
        "Return ctx.fail('<declared reason>', ...) for errors the filter maps, undefined for the rest.",
      { cause: error },
    );
  }
  return error;
}

function describe(mapped: unknown, reason: unknown): string {
  if (typeof reason === 'string') return `the reason "${reason}"`;
  if (isProtocolError(mapped)) return 'an error without a reason';
  if (mapped instanceof Error) return `${mapped.name}: ${mapped.message}`;
  return `a ${typeof mapped}`;
}

/** The chain compiled for `definition`; EMPTY_CHAIN when nothing applies to it. */
export function chainOf(
  runtime: { readonly callChains?: ReadonlyMap<Constructor, CallChain> },
  definition: Constructor,
): CallChain {
  return runtime.callChains?.get(definition) ?? EMPTY_CHAIN;
}
