// The principal of an AuthInfo as one string, for binding state to whoever created it (a 2025 session to the token
// that opened it): two requests share a key only when client, subject and tenant are all the same.
import type { AuthInfo } from '@modelcontextprotocol/server';
import { principalOf } from '../../src/index.js';

/** A stable key of the client, subject and tenant; undefined for an unauthenticated request (nothing to bind). */
export function principalKey(authInfo: AuthInfo | undefined): string | undefined {
  if (!authInfo) return undefined;
  const { clientId, subject, tenantId } = principalOf(authInfo);
  return JSON.stringify([clientId, subject, tenantId ?? null]);
}
