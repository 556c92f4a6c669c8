// @RequiresConsent({ message, target, contentHash?, ttlSeconds? }): the tool's handler runs only once the user has
// confirmed this call in a prompt the server asked, proved by a single-use record the server stored when it asked.
// The gate itself is src/pipeline/consent-gate.ts; a gated handler holds no consent code.
import type { Context } from '../src/context/context.js';
import { CONSENT_METADATA, defineMetadata } from './metadata-keys.js';

type MaybePromise<T> = T | Promise<T>;

/** Computes what the target holds now; runs before the handler, on every round of a gated call. */
export type ConsentHashFunction<I> = (input: I, ctx: Context) => MaybePromise<string>;

export interface ConsentOptions<I, K extends string = string> {
  /** The question the user is asked: a sentence, or one built from the call's parsed input. */
  readonly message: string | ((input: I) => string);
  /** What the call acts on (an id, a path). A confirmation given for one target never confirms another. */
  readonly target: (input: I) => string;
  /**
   * What the target holds right now, so a confirmation goes stale when the target changes between the prompt and the
   * retry. Either a function of the input and the Context, or the name of a method of the tool class, called on the
   * request's tool instance as `method(input, ctx)` so it can use the tool's injected services. Omitted: `''`.
   */
  readonly contentHash?: K | ConsentHashFunction<I>;
  /** How long an unanswered prompt stays redeemable, in seconds. Default 600. */
  readonly ttlSeconds?: number;
}

/** What the decorator records: the options with the input type erased; src/definitions checks and compiles them. */
export type ConsentMetadata = ConsentOptions<unknown>;

/**
 * The instance a gated tool class must have: `handle` accepts the input the options read, and a method named by
 * `contentHash` exists with the hash signature. Either check is skipped when its type could not be inferred (the
 * input left as `unknown`, the method name widened to `string`); boot checks the method name in every case.
 */
export type ConsentTool<I, K extends string> = (unknown extends I
  ? unknown
  : { readonly handle: (input: I, ctx: never) => unknown }) &
  (string extends K ? unknown : { readonly [P in K]: (input: I, ctx: never) => MaybePromise<string> });

/**
 * Give the input type once, by annotating a callback's parameter (`target: (input: Input) => input.id`) or as the
 * type argument (`@RequiresConsent<Input>({...})`); the other callbacks are typed from it.
 */
export function RequiresConsent<I, K extends string = string>(
  options: ConsentOptions<I, K>,
): (target: new (...args: never[]) => ConsentTool<I, K>) => void {
  return (target) => defineMetadata(CONSENT_METADATA, options as unknown as ConsentMetadata, target);
}
