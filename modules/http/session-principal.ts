// Who a 2025 session belongs to. A session opened by one caller answers 404 to every other, on every instance, so
// a leaked Mcp-Session-Id is no way into someone else's session. The principal is an opaque string stored in the
// session record; until auth derives one from the verified request, every request has none.
import type { IncomingMessage } from 'node:http';

/** The caller of `req` as an opaque string, or undefined for an anonymous request. The hook auth fills in. */
export function principalOf(_req: IncomingMessage): string | undefined {
  return undefined;
}

/** Whether a request by `principal` may use a session opened by `owner`. */
export function mayUseSession(owner: string | undefined, principal: string | undefined): boolean {
  return owner === undefined || owner === principal;
}
