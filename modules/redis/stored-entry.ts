// The text stored under a value key: `EXPIRY|VALUE`, where EXPIRY is the provider clock's expiry instant (epoch ms)
// or empty. Redis expires the key itself by a relative PX; the stamp makes "expired" mean the instant the provider's
// clock says, the same instant as on every other provider, even when that clock is not Redis's.
import { storageError } from '../../src/errors/index.js';
import { isExpired } from '../../src/storage/index.js';

const SEPARATOR = '|';
/** Enough of the stored text to hold any stamp and its separator, for reads that need only the header. */
export const HEADER_READ_BYTES = 32;

export function encodeStoredEntry(value: string, expiresAt: number | undefined): string {
  return `${expiresAt === undefined ? '' : String(expiresAt)}${SEPARATOR}${value}`;
}

function corrupt(): never {
  throw storageError('Stored state entry is corrupt: expected an expiry stamp before the value', {
    reason: 'storage_corrupt',
  });
}

function expiryOf(stored: string, separatorAt: number): number | undefined {
  if (separatorAt < 0) corrupt();
  if (separatorAt === 0) return undefined;
  const expiresAt = Number(stored.slice(0, separatorAt));
  if (!Number.isFinite(expiresAt)) corrupt();
  return expiresAt;
}

/** The value of a stored text, or null when it is absent or its stamp has passed at `nowMs`. */
export function liveValue(stored: string | null, nowMs: number): string | null {
  if (stored === null) return null;
  const separatorAt = stored.indexOf(SEPARATOR);
  return isExpired(expiryOf(stored, separatorAt), nowMs) ? null : stored.slice(separatorAt + 1);
}

/** Whether a stored text, of which `header` is at least the first HEADER_READ_BYTES, was live at `nowMs`. */
export function headerIsLive(header: string | null, nowMs: number): boolean {
  if (header === null || header === '') return false;
  return !isExpired(expiryOf(header, header.indexOf(SEPARATOR)), nowMs);
}
