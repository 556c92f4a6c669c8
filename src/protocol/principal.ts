// Who a request runs as, read from the AuthInfo its transport attached (the SDK's `ctx.http.authInfo`): the one
// derivation behind ctx.auth, ctx.tenantId and the principal a sealed requestState is bound to.
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import type { AuthContext } from '../context/request-context.js';

/** Tenant of requests that carry no authenticated tenant (stdio, HTTP without auth, a token without `tid`). */
export const DEFAULT_TENANT = 'default';

export interface Principal {
  /** `AuthInfo.clientId`; empty when the request is unauthenticated. */
  readonly clientId: string;
  /** The token's `sub` claim (`AuthInfo.extra.sub`); empty when absent. */
  readonly subject: string;
  /** The token's `tid` claim (`AuthInfo.extra.tid`); `'default'` when absent. */
  readonly tenantId: string;
  /** The verified token's AuthInfo, when the request carried one. */
  readonly authInfo: AuthInfo | undefined;
}

export function requestPrincipal(sdk: Pick<ServerContext, 'http'>): Principal {
  const authInfo = sdk.http?.authInfo;
  const tenantId = claim(authInfo, 'tid');
  return {
    clientId: authInfo?.clientId ?? '',
    subject: claim(authInfo, 'sub'),
    tenantId: tenantId === '' ? DEFAULT_TENANT : tenantId,
    authInfo,
  };
}

/** A string claim from `AuthInfo.extra`; a missing or non-string claim reads as empty, never as another type. */
function claim(authInfo: AuthInfo | undefined, name: 'sub' | 'tid'): string {
  const value = authInfo?.extra?.[name];
  return typeof value === 'string' ? value : '';
}

/** ctx.auth: the principal of an authenticated request; undefined when it carried no AuthInfo. */
export function authContextOf(principal: Principal): AuthContext | undefined {
  if (!principal.authInfo) return undefined;
  return {
    clientId: principal.clientId,
    ...(principal.subject === '' ? {} : { subject: principal.subject }),
    scopes: principal.authInfo.scopes,
    tenantId: principal.tenantId,
  };
}
