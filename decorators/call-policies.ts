// @RateLimit, @Quota and @Cache: call policies on a tool, resource or prompt class, or on a @Module class (for the
// definitions it declares), recorded as metadata; src/app/compile-call-policies.ts checks them at boot and
// src/pipeline/call-policy.ts applies them, counting in the app's storage backend (shared by instances on Redis).
import type { Context } from '../src/context/context.js';
import {
  CACHE_METADATA,
  defineMetadata,
  prependMetadata,
  QUOTAS_METADATA,
  RATE_LIMITS_METADATA,
} from './metadata-keys.js';
import type { Constructor } from './types.js';

/**
 * Whose calls a limit counts together: the tenant's, the token's subject (anonymous callers: their address), the
 * OAuth client's (anonymous: their address), the caller's IP address, or a key of your own from the Context. Over
 * stdio there is one caller, so `subject`, `client` and `ip` count everything together.
 */
export type PolicyKey = 'tenant' | 'subject' | 'client' | 'ip' | ((ctx: Context) => string);

export interface RateLimitOptions {
  /** Calls admitted in any window (a burst of this many at once, then one per windowMs / limit). */
  readonly limit: number;
  /** The window in milliseconds: 1000 to 86,400,000 (a day). */
  readonly windowMs: number;
  /** Whose calls count together; default `'subject'`. */
  readonly by?: PolicyKey;
}

export interface QuotaOptions {
  /** Calls admitted per period. */
  readonly limit: number;
  /** The calendar period (UTC) the count runs over before it starts again. */
  readonly period: 'day' | 'month';
  /** Whose calls count together; default `'tenant'`. */
  readonly by?: PolicyKey;
}

export interface CacheOptions {
  /** How long an answer is served from the cache, in milliseconds: 1000 to 86,400,000. */
  readonly ttlMs: number;
  /**
   * Who shares an answer: `'tenant'` (the default) callers of one tenant; `'subject'` one token subject; `'public'`
   * everyone, across tenants (only for answers that depend on nothing but the arguments).
   */
  readonly scope?: 'tenant' | 'subject' | 'public';
}

/**
 * Refuses calls beyond `limit` per `windowMs` with `rate_limited` (JSON-RPC -32004, `data.retryAfterMs`; HTTP 429 with
 * Retry-After on 2026-07-28). On a module it counts the calls of every definition it declares together; several
 * limits may be stacked and all must admit a call.
 */
export function RateLimit(options: RateLimitOptions) {
  return (target: Constructor): void => prependMetadata(RATE_LIMITS_METADATA, [options], target);
}

/** Refuses calls beyond `limit` per calendar day or month (UTC) with `quota_exceeded`; `ctx.usage` shows what is left. */
export function Quota(options: QuotaOptions) {
  return (target: Constructor): void => prependMetadata(QUOTAS_METADATA, [options], target);
}

/**
 * Serves a read-only tool's, a resource's or a prompt's answer from the storage backend for `ttlMs`, keyed by its
 * validated arguments (a resource: its URI): a hit skips the handler. Error answers are never stored. A tool must
 * declare `annotations: { readOnlyHint: true }` and may not ask for consent or run as a task.
 */
export function Cache(options: CacheOptions) {
  return (target: Constructor): void => defineMetadata(CACHE_METADATA, options, target);
}
