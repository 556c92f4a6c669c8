// Who a request runs as, read from the AuthInfo its transport attached (the SDK's `ctx.http.authInfo`): the one
// derivation behind ctx.auth, ctx.tenantId, the principal a sealed requestState is bound to and the tenant a
// notification is scoped to. A verifier (mcp-kiln/auth, or the testing kit) writes the claims into
// `AuthInfo.extra`: `sub`, `tid` (the tenant it resolved, whichever claim or fallback it came from) and `claims`.
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import type { AuthContext } from '../context/request-context.js';
import { isPlainObject } from './plain-object.js';

/** Tenant of unauthenticated requests (stdio, HTTP with MCP_AUTH_MODE=none). */
export const DEFAULT_TENANT = 'default';

export interface Principal {
  /** `AuthInfo.clientId`; empty when the request is unauthenticated. */
  readonly clientId: string;
  /** The token's `sub` claim (`AuthInfo.extra.sub`); empty when absent. */
  readonly subject: string;
  /**
   * The tenant the verifier resolved (`AuthInfo.extra.tid`); `'default'` for an unauthenticated request. Undefined for
   * an authenticated request whose token names none: distinct callers must not silently share one tenant, so
   * `ctx.state` then refuses (fail closed).
   */
  readonly tenantId: string | undefined;
  /** ctx.auth: undefined when the request carried no AuthInfo. */
  readonly auth: AuthContext | undefined;
}

const NOBODY: Principal = Object.freeze({ clientId: '', subject: '', tenantId: DEFAULT_TENANT, auth: undefined });

/** The principal an AuthInfo describes; the unauthenticated principal for none. */
export function principalOf(authInfo: AuthInfo | undefined): Principal {
  if (!authInfo) return NOBODY;
  const subject = claim(authInfo, 'sub');
  const tenant = claim(authInfo, 'tid');
  const tenantId = tenant === '' ? undefined : tenant;
  const claims = authInfo.extra?.claims;
  const auth: AuthContext = {
    clientId: authInfo.clientId,
    ...(subject === '' ? {} : { subject }),
    scopes: authInfo.scopes,
    ...(tenantId === undefined ? {} : { tenantId }),
    ...(typeof authInfo.expiresAt === 'number' ? { expiresAt: authInfo.expiresAt } : {}),
    ...(isPlainObject(claims) ? { claims } : {}),
  };
  return { clientId: authInfo.clientId, subject, tenantId, auth };
}

/**
 * The principal as one string no other principal shares: a JSON array keeps a separator inside an id harmless, and a
 * token without a tenant (null) never collides with one whose tenant is the string 'default'. What sealed
 * requestState, consent records and 2025 sessions are bound to.
 */
export function principalKeyOf(principal: Principal): string {
  return JSON.stringify([principal.clientId, principal.subject, principal.tenantId ?? null]);
}

/** The key of an authenticated request's principal; undefined for an unauthenticated one (nothing to bind). */
export function principalKey(authInfo: AuthInfo | undefined): string | undefined {
  return authInfo ? principalKeyOf(principalOf(authInfo)) : undefined;
}

export function requestPrincipal(sdk: Pick<ServerContext, 'http'>): Principal {
  return principalOf(sdk.http?.authInfo);
}

/** A string claim from `AuthInfo.extra`; a missing or non-string claim reads as empty, never as another type. */
function claim(authInfo: AuthInfo, name: 'sub' | 'tid'): string {
  const value = authInfo.extra?.[name];
  return typeof value === 'string' ? value : '';
}
