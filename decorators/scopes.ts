// @Scopes(...): the OAuth scopes a caller's token must carry to call a tool, read a resource or get a prompt.
// `@Scopes('notes:write')` and `@Scopes('a', 'b')` need every scope listed; `@Scopes({ anyOf: ['a', 'b'] })` needs one
// of them. Metadata only: the app compiler checks the scope names at boot and the runtime refuses before any handler.
import { defineMetadata, SCOPES_METADATA } from './metadata-keys.js';
import type { Constructor } from './types.js';

/** What a definition requires: every listed scope (`all`) or at least one of them (`any`). */
export interface ScopeRequirement {
  readonly mode: 'all' | 'any';
  readonly scopes: readonly string[];
}

/** The object form: `{ allOf: [...] }` or `{ anyOf: [...] }` (list the narrowest alternative first). */
export type ScopesOptions =
  | { readonly allOf: readonly [string, ...string[]]; readonly anyOf?: never }
  | { readonly anyOf: readonly [string, ...string[]]; readonly allOf?: never };

export function Scopes(...scopes: readonly [string, ...string[]]): (target: Constructor) => void;
export function Scopes(options: ScopesOptions): (target: Constructor) => void;
export function Scopes(...args: readonly (string | ScopesOptions)[]): (target: Constructor) => void {
  const [first] = args;
  const requirement: ScopeRequirement =
    typeof first === 'object' && first !== null
      ? first.anyOf
        ? { mode: 'any', scopes: [...first.anyOf] }
        : { mode: 'all', scopes: [...(first.allOf ?? [])] }
      : { mode: 'all', scopes: args as readonly string[] };
  return (target) => defineMetadata(SCOPES_METADATA, requirement, target);
}
