// Usage accounting: calls, errors and time per tenant, definition and UTC day. Each instance counts in memory and
// adds what it counted to one counter per tenant and day in the storage backend every flush interval (one atomic add,
// so instances sharing Redis sum up), and at shutdown. Readers get the stored totals plus this instance's unflushed
// counts. Counting never fails a call: a failed add is kept for the next flush and logged.
import { kilnError } from '../errors/factories.js';
import { McpError } from '../errors/mcp-error.js';
import type { StorageLogger } from './storage-errors.js';
import type { StorageProvider } from './storage-provider.js';

/** One definition's usage on one day. */
export interface UsageRow {
  readonly method: 'tools/call' | 'resources/read' | 'prompts/get';
  /** The tool or prompt name, or the resource's name. */
  readonly name: string;
  readonly calls: number;
  readonly errors: number;
  /** Total time spent answering, in milliseconds. */
  readonly durationMs: number;
}

export interface UsageLedgerOptions {
  /** Off (MCP_USAGE_ACCOUNTING=off): nothing is counted and `daily` says how to turn it on. */
  readonly enabled: boolean;
  /** Where counts are added up; absent (a storage service replaced in a test), they stay in this instance. */
  readonly store: StorageProvider | undefined;
  readonly now: () => number;
  readonly flushMs: number;
  readonly logger?: StorageLogger;
}

/** Counters of tenants no token names (no tenant): a namespace no request can name. */
const NO_TENANT = '\u0000kiln-usage';
/** Days a day's counter is kept. */
const KEEP_DAYS = 400;
const DAY_MS = 86_400_000;
const FIELDS = ['calls', 'errors', 'ms'] as const;

/** Reads and records usage; created by the app when MCP_USAGE_ACCOUNTING=on. */
export class UsageLedger {
  readonly #options: UsageLedgerOptions;
  /** Unflushed counts: tenant namespace → day → field → amount. */
  #pending = new Map<string, Map<string, Record<string, number>>>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;

  constructor(options: UsageLedgerOptions) {
    this.#options = options;
  }

  get enabled(): boolean {
    return this.#options.enabled;
  }

  /** Counts one call; never throws. */
  record(tenantId: string | undefined, method: UsageRow['method'], name: string, failed: boolean, ms: number): void {
    const namespace = tenantId ?? NO_TENANT;
    const day = dayOf(this.#options.now());
    let days = this.#pending.get(namespace);
    if (!days) {
      days = new Map();
      this.#pending.set(namespace, days);
    }
    let fields = days.get(day);
    if (!fields) {
      fields = {};
      days.set(day, fields);
    }
    const id = `${method} ${name}`;
    add(fields, `calls|${id}`, 1);
    if (failed) add(fields, `errors|${id}`, 1);
    add(fields, `ms|${id}`, Math.round(ms * 1000) / 1000);
    if (!this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.flush();
      }, this.#options.flushMs);
      this.#timer.unref();
    }
  }

  /** A tenant's usage on a UTC day (`YYYY-MM-DD`, default today), sorted by method and name. */
  async daily(tenantId: string | undefined, day: string = dayOf(this.#options.now())): Promise<UsageRow[]> {
    if (!this.#options.enabled) {
      throw kilnError('usage_accounting_off', 'Usage accounting is off: set MCP_USAGE_ACCOUNTING=on to count calls.');
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
      throw kilnError('invalid_day', `Invalid day ${JSON.stringify(day)}: expected YYYY-MM-DD (UTC).`);
    }
    const namespace = tenantId ?? NO_TENANT;
    const { store } = this.#options;
    const stored = (await store?.readCounters?.(namespace, [keyOf(day)]))?.get(keyOf(day)) ?? {};
    const totals: Record<string, number> = { ...stored };
    for (const [field, amount] of Object.entries(this.#pending.get(namespace)?.get(day) ?? {}))
      add(totals, field, amount);
    const rows = new Map<string, { calls: number; errors: number; durationMs: number }>();
    for (const [field, amount] of Object.entries(totals)) {
      const [kind, id] = splitField(field);
      if (!FIELDS.includes(kind as (typeof FIELDS)[number]) || id === undefined) continue;
      const row = rows.get(id) ?? { calls: 0, errors: 0, durationMs: 0 };
      if (kind === 'calls') row.calls += amount;
      else if (kind === 'errors') row.errors += amount;
      else row.durationMs += amount;
      rows.set(id, row);
    }
    return [...rows]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, row]) => {
        const space = id.indexOf(' ');
        return {
          method: id.slice(0, space) as UsageRow['method'],
          name: id.slice(space + 1),
          calls: row.calls,
          errors: row.errors,
          durationMs: Math.round(row.durationMs * 1000) / 1000,
        };
      });
  }

  /** Adds everything counted so far to the storage backend; what fails to land is kept for the next flush. */
  flush(): Promise<void> {
    this.#flushing ??= this.#flushOnce().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  /** Flushes what is left and stops the timer; called once, at shutdown. */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#flushing;
    await this.flush();
  }

  /** Lifecycle hook: runs before storage closes (the ledger depends on it), so the last counts land. */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  async #flushOnce(): Promise<void> {
    const { store, logger } = this.#options;
    if (!store?.addCounter) return;
    const addCounter = store.addCounter;
    const pending = this.#pending;
    this.#pending = new Map();
    const ttlMs = KEEP_DAYS * DAY_MS;
    await Promise.all(
      [...pending].flatMap(([namespace, days]) =>
        [...days].map(async ([day, deltas]) => {
          try {
            await addCounter.call(store, namespace, keyOf(day), { deltas, ttlMs });
          } catch (error) {
            if (error instanceof McpError && error.reason === 'storage_outcome_unknown') {
              // It may have landed: adding it again could count it twice.
              logger?.warning(
                { err: error, day },
                'Usage counts may not have been added to storage; not adding them again',
              );
              return;
            }
            // Kept for the next flush: an add that failed before it reached the backend is not lost.
            const days = this.#pending.get(namespace) ?? new Map<string, Record<string, number>>();
            const fields = days.get(day) ?? {};
            for (const [field, amount] of Object.entries(deltas)) add(fields, field, amount);
            days.set(day, fields);
            this.#pending.set(namespace, days);
            logger?.warning(
              { err: error, day },
              'Could not add usage counts to storage; keeping them for the next flush',
            );
          }
        }),
      ),
    );
  }
}

function keyOf(day: string): string {
  return `usage/${day}`;
}

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function add(fields: Record<string, number>, field: string, amount: number): void {
  fields[field] = (fields[field] ?? 0) + amount;
}

function splitField(field: string): [string, string | undefined] {
  const bar = field.indexOf('|');
  return bar < 0 ? [field, undefined] : [field.slice(0, bar), field.slice(bar + 1)];
}
