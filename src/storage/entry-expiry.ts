// TTL arithmetic shared by every provider, so "expired" means the same instant everywhere: an entry is gone from
// the millisecond its absolute expiry time is reached.
import { validationError } from '../errors/factories.js';

/** Throws `McpError(ValidationError)` unless `ttlSeconds` is a positive, finite number. */
export function assertTtlSeconds(ttlSeconds: unknown): asserts ttlSeconds is number {
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw validationError(`Invalid ttl ${String(ttlSeconds)}: a TTL must be a positive number of seconds`, {
      reason: 'invalid_ttl',
    });
  }
}

/** The absolute expiry (epoch ms) for a TTL in seconds, or undefined when no TTL was given. */
export function expiryFromTtl(nowMs: number, ttlSeconds: number | undefined): number | undefined {
  if (ttlSeconds === undefined) return undefined;
  assertTtlSeconds(ttlSeconds);
  return nowMs + ttlSeconds * 1000;
}

export function isExpired(expiresAt: number | undefined, nowMs: number): boolean {
  return expiresAt !== undefined && expiresAt <= nowMs;
}
