// The opaque `list` cursor: base64url JSON of `{ t, p, k }` — short hashes of the tenant and prefix it was issued
// for, and the last key returned. Binding to tenant and prefix makes a cursor replayed elsewhere fail loudly
// instead of silently paging a different listing; data access itself stays tenant-scoped by the provider.

import { validationError } from '../errors/factories.js';
import { nodeCrypto } from '../platform/lazy-builtins.js';

interface CursorPayload {
  t: string;
  p: string;
  k: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function shortHash(text: string): string {
  return nodeCrypto().createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 16);
}

function invalidCursor(problem: string) {
  return validationError(`Invalid cursor: ${problem}`, { reason: 'invalid_cursor' });
}

export function encodeListCursor(tenantId: string, prefix: string, lastKey: string): string {
  const payload: CursorPayload = { t: shortHash(tenantId), p: shortHash(prefix), k: lastKey };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** The last key of the previous page, once the cursor is proven to belong to this tenant and prefix. */
export function decodeListCursor(cursor: unknown, tenantId: string, prefix: string): string {
  if (typeof cursor !== 'string' || !BASE64URL.test(cursor)) {
    throw invalidCursor('expected the cursor string returned by a previous list() call');
  }
  let payload: Partial<CursorPayload> | null;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorPayload> | null;
  } catch {
    throw invalidCursor('it is not a cursor returned by list()');
  }
  if (
    typeof payload !== 'object' ||
    payload === null ||
    typeof payload.t !== 'string' ||
    typeof payload.p !== 'string' ||
    typeof payload.k !== 'string'
  ) {
    throw invalidCursor('it is not a cursor returned by list()');
  }
  if (payload.t !== shortHash(tenantId)) throw invalidCursor('it was issued for another tenant');
  if (payload.p !== shortHash(prefix)) throw invalidCursor('it was issued for a different prefix');
  if (!payload.k.startsWith(prefix)) throw invalidCursor('its position lies outside the prefix');
  return payload.k;
}
