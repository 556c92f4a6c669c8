// Whether a caller's scopes meet a @Scopes requirement, and the insufficient_scope error that says which scopes to
// obtain. Only an authenticated request is checked: without auth (stdio, HTTP with MCP_AUTH_MODE=none) no principal
// exists to hold scopes, and the server is open by configuration.
import type { ScopeRequirement } from '../../decorators/scopes.js';
import { kilnError } from '../errors/factories.js';
import { type McpError } from '../errors/mcp-error.js';
import type { AuthContext } from './request-context.js';

/**
 * The scopes a step-up challenge names when `auth` does not meet `requirement`, or undefined when it does. An all-of
 * requirement names every scope it lists, not only the missing ones: a client may replace its token with one holding
 * just the challenged scopes (MCP authorization, scope challenges). An any-of requirement names its first alternative.
 */
export function unmetScopes(
  requirement: ScopeRequirement | undefined,
  auth: Pick<AuthContext, 'scopes'> | undefined,
): readonly string[] | undefined {
  if (!requirement || !auth) return undefined;
  const granted = new Set(auth.scopes);
  if (requirement.mode === 'any') {
    return requirement.scopes.some((scope) => granted.has(scope)) ? undefined : requirement.scopes.slice(0, 1);
  }
  return requirement.scopes.every((scope) => granted.has(scope)) ? undefined : requirement.scopes;
}

/** The error of a call refused for its scopes; `data.requiredScopes` lists what the challenge names. */
export function insufficientScope(requiredScopes: readonly string[], what: string): McpError {
  return kilnError(
    'insufficient_scope',
    `${what} needs the scope ${requiredScopes.join(' ')}, which the token lacks.`,
    {
      requiredScopes: [...requiredScopes],
      recovery: {
        hint: `Obtain a token that carries ${requiredScopes.join(' ')} from the authorization server and call again.`,
      },
    },
  );
}
