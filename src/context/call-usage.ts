// What a call's policies counted, as the handler sees it on `ctx.usage`: each rate limit and quota that admitted
// this call, with what is left, so a tool can tell its caller how much it may still ask for.

export interface RateLimitStatus {
  readonly limit: number;
  readonly windowMs: number;
  /** Calls that could still be made at once after this one. */
  readonly remaining: number;
  /** Whose calls the limit counts: `tenant`, `subject`, `client`, `ip` or `custom`. */
  readonly by: string;
}

export interface QuotaStatus {
  readonly limit: number;
  readonly period: 'day' | 'month';
  /** Calls counted this period, this one included. */
  readonly used: number;
  readonly remaining: number;
  /** When the period ends and the count starts again (ISO 8601, UTC). */
  readonly resetsAt: string;
  readonly by: string;
}

export interface CallUsage {
  readonly rateLimits: readonly RateLimitStatus[];
  readonly quotas: readonly QuotaStatus[];
}

/** The usage of a call no policy applies to. */
export const NO_USAGE: CallUsage = Object.freeze({ rateLimits: Object.freeze([]), quotas: Object.freeze([]) });
