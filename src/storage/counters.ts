// Counters for call policies (rate limits, quotas, usage): what a provider stores and the arithmetic of each
// operation, in one place. The in-memory and filesystem providers apply these functions to the state they hold;
// the Redis provider runs the same rules in Lua scripts (modules/redis/counter-scripts.ts).

/** A rate: at most `limit` calls in any `windowMs`, refilled evenly (GCRA: one call every windowMs / limit). */
export interface RateRule {
  readonly limit: number;
  readonly windowMs: number;
}

/** The answer to one call's claim on a rate. */
export interface RateDecision {
  readonly allowed: boolean;
  /** Calls that could still be admitted at once after this one. */
  readonly remaining: number;
  /** When refused, how long until one call would be admitted; 0 when allowed. */
  readonly retryAfterMs: number;
}

/** Adds to named numeric fields of one counter; with `cap`, only while a field stays within its limit. */
export interface CounterAdd {
  readonly deltas: Readonly<Record<string, number>>;
  /** Expiry of a counter this call creates; an existing counter keeps its own. */
  readonly ttlMs: number;
  /** Refuse the whole add (changing nothing) when `field` would go above `limit`. */
  readonly cap?: { readonly field: string; readonly limit: number };
}

/** The counter's fields after the add (before it, when refused). */
export interface CounterReading {
  readonly applied: boolean;
  readonly values: Readonly<Record<string, number>>;
}

/** A rate's stored state: the theoretical arrival time of the next call (epoch ms). */
export interface RateState {
  readonly tat: number;
}

/** GCRA: the decision for a call at `now` and the state to store when it is admitted. */
export function claimRate(
  stored: RateState | undefined,
  now: number,
  rule: RateRule,
): { decision: RateDecision; next?: RateState } {
  const interval = rule.windowMs / rule.limit;
  const tat = Math.max(stored?.tat ?? now, now);
  const next = tat + interval;
  const ahead = next - now;
  if (ahead > rule.windowMs) {
    return { decision: { allowed: false, remaining: 0, retryAfterMs: Math.ceil(ahead - rule.windowMs) } };
  }
  return {
    decision: { allowed: true, remaining: Math.floor((rule.windowMs - ahead) / interval), retryAfterMs: 0 },
    next: { tat: next },
  };
}

/** How long a stored rate state matters: once `now` passes its tat, it says nothing a fresh one would not. */
export function rateStateTtlMs(state: RateState, now: number): number {
  return Math.max(1, Math.ceil(state.tat - now));
}

/** The counter's fields after `add`, or undefined when its cap refuses it. */
export function addToCounter(
  values: Readonly<Record<string, number>> | undefined,
  add: CounterAdd,
): Record<string, number> | undefined {
  const current = values ?? {};
  if (add.cap && (current[add.cap.field] ?? 0) + (add.deltas[add.cap.field] ?? 0) > add.cap.limit) return undefined;
  const next: Record<string, number> = { ...current };
  for (const [field, delta] of Object.entries(add.deltas)) next[field] = (next[field] ?? 0) + delta;
  return next;
}

/** One stored counter: its fields (a rate's is `tat`) and when it expires (epoch ms). */
export interface CounterRecord {
  readonly values: Readonly<Record<string, number>>;
  readonly expiresAt: number;
}

/** What a change of one counter stores (nothing when `next` is absent) and answers. */
export interface CounterChange<T> {
  readonly next?: CounterRecord;
  readonly answer: T;
}

/** The primitives a provider gives: a live record, and an atomic read-change-write of one record. */
export interface CounterRecords {
  read(tenantId: string, key: string, now: number): Promise<CounterRecord | undefined>;
  update<T>(
    tenantId: string,
    key: string,
    now: number,
    change: (current: CounterRecord | undefined) => CounterChange<T>,
  ): Promise<T>;
}

/** The provider's counter methods built on its records, so every provider applies the same rules. */
export function counterMethods(records: CounterRecords, clock: () => number) {
  return {
    claimRate(tenantId: string, key: string, rule: RateRule): Promise<RateDecision> {
      const now = clock();
      return records.update(tenantId, key, now, (current) => {
        const tat = current?.values.tat;
        const { decision, next } = claimRate(tat === undefined ? undefined : { tat }, now, rule);
        return next
          ? { answer: decision, next: { values: { tat: next.tat }, expiresAt: now + rateStateTtlMs(next, now) } }
          : { answer: decision };
      });
    },
    addCounter(tenantId: string, key: string, add: CounterAdd): Promise<CounterReading> {
      const now = clock();
      return records.update<CounterReading>(tenantId, key, now, (current) => {
        const values = addToCounter(current?.values, add);
        if (!values) return { answer: { applied: false, values: current?.values ?? {} } };
        return {
          answer: { applied: true, values },
          next: { values, expiresAt: current?.expiresAt ?? now + add.ttlMs },
        };
      });
    },
    async readCounters(tenantId: string, keys: readonly string[]): Promise<Map<string, Record<string, number>>> {
      const now = clock();
      const found = new Map<string, Record<string, number>>();
      for (const key of keys) {
        const record = await records.read(tenantId, key, now);
        if (record) found.set(key, { ...record.values });
      }
      return found;
    },
  };
}
