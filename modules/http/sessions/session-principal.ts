// Who a 2025 session belongs to. A session opened by one caller answers 404 to every other, on every instance, so
// a leaked Mcp-Session-Id is no way into someone else's session. The principal is an opaque string stored in the
// session record: the verified token's client, subject and tenant, or none for an anonymous request.
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { principalKey } from '../../../src/host/index.js';

/** The caller of `req` (its verified AuthInfo, set by the bearer gate) as a string, or undefined when anonymous. */
export function principalOf(req: IncomingMessage): string | undefined {
  return principalKey((req as IncomingMessage & { auth?: AuthInfo }).auth);
}

/** The tenant of a principal string; undefined both for an anonymous session and for a token without a tenant. */
export function principalTenant(principal: string | undefined): { readonly tenantId: string | undefined } | undefined {
  if (principal === undefined) return undefined;
  // Records written by another version or host may hold any opaque string: such a session hears unscoped events only.
  let parsed: unknown;
  try {
    parsed = JSON.parse(principal);
  } catch {
    return { tenantId: undefined };
  }
  const tenant = Array.isArray(parsed) ? parsed[2] : undefined;
  return { tenantId: typeof tenant === 'string' ? tenant : undefined };
}

/** Whether a request by `principal` may use a session opened by `owner`. */
export function mayUseSession(owner: string | undefined, principal: string | undefined): boolean {
  return owner === undefined ? principal === undefined : owner === principal;
}
