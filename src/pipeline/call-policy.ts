// Call policies around one operation, after its @Scopes check and before its round: rate limits, then quotas (each
// an atomic claim in the storage backend, refused with rate_limited / quota_exceeded before anything runs), then the
// response cache (a hit answers without running the handler). Compiled per definition at boot
// (src/app/compile-call-policies.ts); a definition with no policy never comes here.
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { PolicyKey } from '../../decorators/call-policies.js';
import type { CallUsage, QuotaStatus, RateLimitStatus } from '../context/call-usage.js';
import type { ContextSeed } from '../context/create-context.js';
import { createContext } from '../context/create-context.js';
import { kilnError } from '../errors/factories.js';
import { nodeCrypto } from '../platform/lazy-builtins.js';
import type { StorageProvider } from '../storage/index.js';
import type { PipelineRuntime } from './scoped-handler.js';

/** A seed before the operation is known (the runner's OperationSeed). */
type CallSeed = Omit<ContextSeed, 'operation' | 'uri'>;

/** What the policies need to know of the operation being called, from its kind (methods, so kinds stay bivariant). */
export interface PolicyCall<Result> {
  readonly method: string;
  /** The definition's name, in messages, logs and metrics. */
  readonly name: string;
  /** The validated arguments as one string, or undefined when they do not validate (the round answers that). */
  cacheKey(): string | undefined;
  /** Whether an answer may be stored: error answers never are. */
  cacheable(result: Result): boolean;
  /** The answer as it goes out when cached: a hit marked, a resource's cache hint agreeing with the entry's age. */
  fromCache(result: Result, cache: CompiledCache, ttlMs: number, hit: boolean): Result;
}

export interface CompiledRateLimit {
  /** Names the limit's counter: where it was declared and its position there. */
  readonly id: string;
  readonly limit: number;
  readonly windowMs: number;
  readonly by: PolicyKey;
}

export interface CompiledQuota {
  readonly id: string;
  readonly limit: number;
  readonly period: 'day' | 'month';
  readonly by: PolicyKey;
}

export interface CompiledCache {
  readonly id: string;
  readonly ttlMs: number;
  readonly scope: 'tenant' | 'subject' | 'public';
}

/** Everything that applies to one definition, app-wide, module and class together. */
export interface CallPolicy {
  readonly rateLimits: readonly CompiledRateLimit[];
  readonly quotas: readonly CompiledQuota[];
  readonly cache: CompiledCache | undefined;
}

/** What the runner needs for policies: each definition's, and the backend they count in. */
export interface PolicyRuntime {
  readonly byDefinition: ReadonlyMap<abstract new (...args: never[]) => unknown, CallPolicy>;
  /** The app's storage provider; policies use namespaces of their own, never a tenant's entries. */
  readonly store: StorageProvider;
  readonly now: () => number;
  /** Hears each cache lookup of a cached definition (logs, metrics). */
  readonly onCacheLookup?: (hit: boolean, method: string, name: string) => void;
}

/** The `_meta` key that marks a result answered from the cache. */
export const CACHE_HIT_META = 'mcp-kiln/cache';

/** Counters for `ip` and custom keys, which no tenant owns; tenant ids from tokens never hold a NUL. */
const SHARED_NAMESPACE = '\u0000kiln-policies';
/** Cache entries declared `public`. */
const PUBLIC_CACHE_NAMESPACE = '\u0000kiln-cache-public';
const DAY_MS = 86_400_000;

interface CachedAnswer {
  readonly storedAt: number;
  readonly result: unknown;
}

/** Runs `round` under `policy`: refused before it runs when a limit says so, answered from the cache on a hit. */
export async function runWithPolicy<Result>(
  runtime: PipelineRuntime,
  policies: PolicyRuntime,
  policy: CallPolicy,
  call: PolicyCall<Result>,
  seed: CallSeed,
  round: (seed: CallSeed) => Promise<Result | InputRequiredResult>,
): Promise<Result | InputRequiredResult> {
  const { name } = call;
  const who = new CallerKeys(runtime, seed, name);
  const usage = await claimLimits(policies, policy, who, name, seed.requestId);
  const counted = usage ? { ...seed, usage } : seed;
  const cache = policy.cache;
  if (!cache) return round(counted);
  const argumentsKey = call.cacheKey();
  if (argumentsKey === undefined) return round(counted);
  const { namespace, key } = cacheEntry(cache, who, argumentsKey);
  const hit = await lookUp(policies, runtime, namespace, key, name);
  policies.onCacheLookup?.(hit !== undefined, call.method, name);
  if (hit) {
    runtime.logger.debug({ requestId: seed.requestId, operation: name, cache: 'hit' }, 'Answered from the cache');
    const ageMs = Math.max(0, policies.now() - hit.storedAt);
    return call.fromCache(hit.result as Result, cache, Math.max(0, cache.ttlMs - ageMs), true);
  }
  runtime.logger.debug({ requestId: seed.requestId, operation: name, cache: 'miss' }, 'Not in the cache');
  const answer = await round(counted);
  if (isInputRequiredResult(answer) || !call.cacheable(answer as Result)) return answer;
  const stored: CachedAnswer = { storedAt: policies.now(), result: answer };
  policies.store
    .set(namespace, key, JSON.stringify(stored), { ttlSeconds: cache.ttlMs / 1000 })
    .catch((error: unknown) =>
      runtime.logger.warning({ err: error, operation: name }, 'Could not store an answer in the cache'),
    );
  return call.fromCache(answer as Result, cache, cache.ttlMs, false);
}

/** Rate limits, then quotas, each claimed in turn; the first to refuse throws. Undefined when there are none. */
async function claimLimits(
  policies: PolicyRuntime,
  policy: CallPolicy,
  who: CallerKeys,
  name: string,
  requestId: string,
): Promise<CallUsage | undefined> {
  if (policy.rateLimits.length === 0 && policy.quotas.length === 0) return undefined;
  const { store } = policies;
  // Every rate limit is claimed at once (one round trip for all of them), then the quotas, which only count calls
  // every rate limit admitted.
  const rateLimits = await Promise.all(
    policy.rateLimits.map(async (rule): Promise<RateLimitStatus> => {
      const { namespace, key, by } = who.counter(rule.by);
      const decision = await (store.claimRate as NonNullable<StorageProvider['claimRate']>)(
        namespace,
        `rate/${rule.id}/${key}`,
        rule,
      );
      if (!decision.allowed) {
        throw kilnError(
          'rate_limited',
          `${name} is limited to ${rule.limit} calls per ${describeWindow(rule.windowMs)} (by ${by}); call again in ` +
            `${Math.ceil(decision.retryAfterMs / 1000)} s.`,
          { retryAfterMs: decision.retryAfterMs, limit: rule.limit, windowMs: rule.windowMs, by, requestId },
        );
      }
      return { limit: rule.limit, windowMs: rule.windowMs, remaining: decision.remaining, by };
    }),
  );
  const quotas: QuotaStatus[] = [];
  const now = policies.now();
  for (const rule of policy.quotas) {
    const { namespace, key, by } = who.counter(rule.by);
    const { stamp, resetsAt } = periodOf(rule.period, now);
    const reading = await (store.addCounter as NonNullable<StorageProvider['addCounter']>)(
      namespace,
      `quota/${rule.id}/${stamp}/${key}`,
      { deltas: { calls: 1 }, ttlMs: resetsAt - now + DAY_MS, cap: { field: 'calls', limit: rule.limit } },
    );
    const used = reading.values.calls ?? 0;
    const resets = new Date(resetsAt).toISOString();
    if (!reading.applied) {
      throw kilnError(
        'quota_exceeded',
        `${name} allows ${rule.limit} calls per ${rule.period} (by ${by}), all used; the count starts again at ${resets}.`,
        {
          retryAfterMs: resetsAt - now,
          limit: rule.limit,
          period: rule.period,
          used,
          resetsAt: resets,
          by,
          requestId,
        },
      );
    }
    quotas.push({ limit: rule.limit, period: rule.period, used, remaining: rule.limit - used, resetsAt: resets, by });
  }
  return { rateLimits, quotas };
}

async function lookUp(
  policies: PolicyRuntime,
  runtime: PipelineRuntime,
  namespace: string,
  key: string,
  name: string,
): Promise<CachedAnswer | undefined> {
  try {
    const text = await policies.store.get(namespace, key);
    return text === null ? undefined : (JSON.parse(text) as CachedAnswer);
  } catch (error) {
    // A cache that cannot answer is a miss: the handler runs.
    runtime.logger.warning({ err: error, operation: name }, 'Could not read the cache; running the handler');
    return undefined;
  }
}

function cacheEntry(cache: CompiledCache, who: CallerKeys, argumentsKey: string): { namespace: string; key: string } {
  const digest = (parts: readonly string[]) =>
    nodeCrypto().createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
  if (cache.scope === 'public')
    return { namespace: PUBLIC_CACHE_NAMESPACE, key: `${cache.id}/${digest([argumentsKey])}` };
  const tenant = who.tenantNamespace;
  const parts = cache.scope === 'subject' ? [who.subjectKey(), argumentsKey] : [argumentsKey];
  return { namespace: `\u0000kiln-cache:${tenant}`, key: `${cache.id}/${digest(parts)}` };
}

/** The caller's identity per `by`, read once per call. */
class CallerKeys {
  #address: string | undefined;

  constructor(
    private readonly runtime: PipelineRuntime,
    private readonly seed: CallSeed,
    private readonly operation: string,
  ) {}

  get tenantNamespace(): string {
    return this.seed.tenantId ?? '';
  }

  subjectKey(): string {
    const subject = this.seed.auth?.subject;
    return subject ? `s:${subject}` : `a:${this.address()}`;
  }

  /** Where a counter of this caller lives: tenant-owned identities in the tenant's namespace. */
  counter(by: PolicyKey): { namespace: string; key: string; by: string } {
    const tenant = this.seed.tenantId;
    const inTenant = tenant === undefined ? SHARED_NAMESPACE : tenant;
    switch (by) {
      case 'tenant':
        return { namespace: inTenant, key: 't', by };
      case 'subject':
        return { namespace: inTenant, key: this.subjectKey(), by };
      case 'client': {
        const client = this.seed.auth?.clientId;
        return { namespace: inTenant, key: client ? `c:${client}` : `a:${this.address()}`, by };
      }
      case 'ip':
        return { namespace: SHARED_NAMESPACE, key: `a:${this.address()}`, by };
      default: {
        const { context } = createContext({ ...this.seed, operation: this.operation }, this.runtime.services);
        return { namespace: SHARED_NAMESPACE, key: `x:${String(by(context))}`, by: 'custom' };
      }
    }
  }

  /** The caller's address over HTTP; over stdio there is one caller. */
  private address(): string {
    this.#address ??= this.seed.http?.()?.remoteAddress ?? 'local';
    return this.#address;
  }
}

/** The period's name in counter keys and the instant (epoch ms, UTC) it ends. */
export function periodOf(period: 'day' | 'month', now: number): { stamp: string; resetsAt: number } {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  if (period === 'month') {
    return { stamp: `${year}-${String(month + 1).padStart(2, '0')}`, resetsAt: Date.UTC(year, month + 1, 1) };
  }
  return { stamp: date.toISOString().slice(0, 10), resetsAt: Date.UTC(year, month, date.getUTCDate() + 1) };
}

function describeWindow(windowMs: number): string {
  if (windowMs % 3_600_000 === 0) return windowMs === 3_600_000 ? 'hour' : `${windowMs / 3_600_000} hours`;
  if (windowMs % 60_000 === 0) return windowMs === 60_000 ? 'minute' : `${windowMs / 60_000} minutes`;
  if (windowMs % 1000 === 0) return windowMs === 1000 ? 'second' : `${windowMs / 1000} seconds`;
  return `${windowMs} ms`;
}

/** JSON with object keys sorted, so equal arguments give one cache key whatever order the client sent them in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : item,
  );
}

/** The result marked as answered from the cache (`_meta["mcp-kiln/cache"]: "hit"`). */
export function markedHit<R extends { _meta?: Record<string, unknown> }>(result: R): R {
  return { ...result, _meta: { ...result._meta, [CACHE_HIT_META]: 'hit' } };
}
