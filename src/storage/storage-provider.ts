// The one contract every storage backend implements. Providers see already-serialized JSON strings and an explicit
// tenant id; key rules, JSON handling and cursors live above them in `ContextState`, so a backend stays small.
import { storageError } from '../errors/factories.js';
import { type McpError } from '../errors/mcp-error.js';
import type { CounterAdd, CounterReading, RateDecision, RateRule } from './counters.js';

export interface StorageSetOptions {
  /** Seconds until the entry expires; omit for no expiry. Overwriting an entry replaces its expiry. */
  ttlSeconds?: number;
}

export interface StorageListOptions {
  /** Only keys strictly greater than this one (the last key of the previous page). */
  after?: string;
  /** Maximum number of items in the page; a positive integer. */
  limit: number;
}

export interface StorageEntry {
  key: string;
  value: string;
}

export interface StorageListPage {
  /** Entries sorted by key (UTF-16 code unit order, as `Array.prototype.sort` compares strings). */
  items: StorageEntry[];
  /** True when at least one more matching entry follows the last item. */
  hasMore: boolean;
}

/**
 * A tenant-scoped key-value store of JSON strings. Expired entries are never returned by any call, and `take` is
 * an atomic read-and-delete: of any number of concurrent takes of one key, exactly one receives the value.
 *
 * Failures reject with `McpError(StorageError)` whose message and data a client may see: they name the key and the
 * operation (`data.reason` `storage_io`, `storage_corrupt`, `state_quota_exceeded`, `storage_closed`) and never a
 * path, errno, host or syscall. The backend's own error goes in `cause` and, when the provider has a logger, to the
 * log (see `storage-errors.ts`).
 *
 * Bounds: each provider holds at most `maxEntriesPerTenant` live entries per tenant. A `set` or `setMany` that would
 * add keys beyond it rejects with `state_quota_exceeded` (`data.limit`) and writes nothing; overwriting a live key is
 * always allowed, and expired entries never count. Expired entries are removed even when nobody reads them again:
 * by the backend itself (native TTL) or by `sweepExpired` on a timer that `close` stops.
 *
 * Corrupt entries (stored bytes no write produced), where a backend can have them: `list` skips them and logs a
 * warning with `tenantId` and `key`, once per entry per call; `get`, `getMany` and `take` reject `storage_corrupt`
 * (`take` still consumes the entry); `delete` and `deleteMany` remove them and count them as removed; they count
 * towards the quota until deleted.
 */
export interface StorageProvider {
  get(tenantId: string, key: string): Promise<string | null>;
  set(tenantId: string, key: string, value: string, opts?: StorageSetOptions): Promise<void>;
  /**
   * Stores the value only when the key holds no live entry; resolves true when it did. Of concurrent calls for one
   * key (from any instance sharing the backend), exactly one stores. Optional for custom providers: without it,
   * `ctx.state.setIfAbsent` and idempotency keys refuse with `storage_failed`.
   */
  setIfAbsent?(tenantId: string, key: string, value: string, opts?: StorageSetOptions): Promise<boolean>;
  /**
   * Counters of call policies (rate limits, quotas, usage), kept apart from the tenant's entries: never listed, not
   * counted against `maxEntriesPerTenant`. Each call is atomic across everything sharing the backend. Optional for
   * custom providers: an app that declares a policy on a provider without them stops at boot.
   */
  /** Claims one call on the rate `key`: admitted, or refused with how long until a call would be. */
  claimRate?(tenantId: string, key: string, rule: RateRule): Promise<RateDecision>;
  /** Adds to the counter `key` (created with `add.ttlMs`), all or nothing under `add.cap`. */
  addCounter?(tenantId: string, key: string, add: CounterAdd): Promise<CounterReading>;
  /** The live counters among `keys`; absent and expired ones are left out. */
  readCounters?(tenantId: string, keys: readonly string[]): Promise<Map<string, Record<string, number>>>;
  /** Resolves true when a live entry was removed. */
  delete(tenantId: string, key: string): Promise<boolean>;
  take(tenantId: string, key: string): Promise<string | null>;
  /** The live entries among `keys`; absent and expired keys are left out. */
  getMany(tenantId: string, keys: readonly string[]): Promise<Map<string, string>>;
  /** All or nothing under the quota: it is checked for the whole batch before anything is written. */
  setMany(tenantId: string, entries: ReadonlyMap<string, string>, opts?: StorageSetOptions): Promise<void>;
  /** Resolves with the number of live entries removed. */
  deleteMany(tenantId: string, keys: readonly string[]): Promise<number>;
  list(tenantId: string, prefix: string, opts: StorageListOptions): Promise<StorageListPage>;
  /**
   * Removes expired entries and resolves with how many it removed; never touches a live one. A provider whose
   * backend expires entries by itself may leave it out. The periodic sweep calls it; tests call it directly.
   */
  sweepExpired?(): Promise<number>;
  /** Stops the periodic sweep and releases resources; later calls reject with a StorageError. */
  close(): Promise<void>;
}

/** The rejection every provider gives once closed, so callers see one shape whichever backend is configured. */
export function providerClosedError(providerName: string): McpError {
  return storageError(`${providerName} is closed`, { reason: 'storage_closed' });
}
