// What a guard, an interceptor or an exception filter is told about the call it runs around: which operation, on
// which decorated class, with which input (already validated).
import type { ScopeRequirement } from './scopes.js';
import type { Constructor } from './types.js';

export interface OperationCall {
  readonly kind: 'tool' | 'resource' | 'prompt';
  /** The tool's, resource's or prompt's name. */
  readonly name: string;
  /** The decorated class, so a guard can read metadata of its own from it. */
  readonly definition: Constructor;
  /**
   * What the handler receives: a tool's arguments after the input edge (dropped keys, aliases, parse, repair), a
   * resource's parsed URI variables, a prompt's parsed arguments.
   */
  readonly input: unknown;
  /** The URI being read; resources only. */
  readonly uri?: string;
  /** The definition's @Scopes, checked before any guard runs. */
  readonly scopes?: ScopeRequirement;
}
