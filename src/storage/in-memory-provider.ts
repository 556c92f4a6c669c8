// Process-local storage: one Map per tenant, entries carrying an absolute expiry. Every method does its reads and
// writes without an intervening await, which is what makes `take` atomic and the quota check exact.
import { type CounterRecord, counterMethods } from './counters.js';
import { expiryFromTtl, isExpired } from './entry-expiry.js';
import { quotaExceededError, type StorageLogger, type StorageOperation } from './storage-errors.js';
import { resolveStorageLimits, type StorageLimitOptions } from './storage-limits.js';
import {
  providerClosedError,
  type StorageListOptions,
  type StorageListPage,
  type StorageProvider,
  type StorageSetOptions,
} from './storage-provider.js';
import { SweepSchedule } from './sweep-schedule.js';

export interface InMemoryStorageProviderOptions extends StorageLimitOptions {
  /** Clock in epoch milliseconds; injectable so TTL behaviour can be tested without waiting. */
  now?: () => number;
  /** Where a failed periodic sweep is reported. */
  logger?: StorageLogger;
}

interface StoredEntry {
  value: string;
  expiresAt: number | undefined;
}

export class InMemoryStorageProvider implements StorageProvider {
  private readonly tenants = new Map<string, Map<string, StoredEntry>>();
  /** Policy counters by tenant and key (`tenant NUL key`), apart from the entries. */
  private readonly counters = new Map<string, CounterRecord>();
  private readonly now: () => number;
  private readonly maxEntriesPerTenant: number;
  private readonly sweeps: SweepSchedule;
  private closed = false;

  constructor(options: InMemoryStorageProviderOptions = {}) {
    this.now = options.now ?? Date.now;
    const limits = resolveStorageLimits(options);
    this.maxEntriesPerTenant = limits.maxEntriesPerTenant;
    this.sweeps = new SweepSchedule(
      () => this.sweepExpired(),
      limits.sweepIntervalMs,
      (error) => options.logger?.warning({ err: error }, 'In-memory storage sweep failed'),
    );
  }

  // Each change runs with no await between its read and its write, which makes it atomic in this process.
  private readonly counterOps = counterMethods(
    {
      read: async (tenantId, key, now) => this.liveCounter(`${tenantId}\u0000${key}`, now),
      update: async (tenantId, key, now, change) => {
        const id = `${tenantId}\u0000${key}`;
        const { next, answer } = change(this.liveCounter(id, now));
        if (next) {
          this.counters.set(id, next);
          this.sweeps.start();
        }
        return answer;
      },
    },
    () => this.now(),
  );
  readonly claimRate = this.counterOps.claimRate;
  readonly addCounter = this.counterOps.addCounter;
  readonly readCounters = this.counterOps.readCounters;

  async get(tenantId: string, key: string): Promise<string | null> {
    return this.liveEntry(tenantId, key)?.value ?? null;
  }

  async set(tenantId: string, key: string, value: string, opts?: StorageSetOptions): Promise<void> {
    this.assertOpen();
    const expiresAt = expiryFromTtl(this.now(), opts?.ttlSeconds);
    this.admit(tenantId, [key], 'set');
    this.tenantMap(tenantId).set(key, { value, expiresAt });
    if (expiresAt !== undefined) this.sweeps.start();
  }

  async setIfAbsent(tenantId: string, key: string, value: string, opts?: StorageSetOptions): Promise<boolean> {
    this.assertOpen();
    if (this.liveEntry(tenantId, key)) return false;
    await this.set(tenantId, key, value, opts);
    return true;
  }

  async delete(tenantId: string, key: string): Promise<boolean> {
    return this.takeEntry(tenantId, key) !== null;
  }

  async take(tenantId: string, key: string): Promise<string | null> {
    return this.takeEntry(tenantId, key);
  }

  async getMany(tenantId: string, keys: readonly string[]): Promise<Map<string, string>> {
    this.assertOpen();
    const found = new Map<string, string>();
    for (const key of keys) {
      const entry = this.liveEntry(tenantId, key);
      if (entry) found.set(key, entry.value);
    }
    return found;
  }

  async setMany(tenantId: string, entries: ReadonlyMap<string, string>, opts?: StorageSetOptions): Promise<void> {
    this.assertOpen();
    const expiresAt = expiryFromTtl(this.now(), opts?.ttlSeconds);
    this.admit(tenantId, [...entries.keys()], 'setMany');
    const map = this.tenantMap(tenantId);
    for (const [key, value] of entries) map.set(key, { value, expiresAt });
    if (expiresAt !== undefined) this.sweeps.start();
  }

  async deleteMany(tenantId: string, keys: readonly string[]): Promise<number> {
    this.assertOpen();
    let removed = 0;
    for (const key of new Set(keys)) if (this.takeEntry(tenantId, key) !== null) removed++;
    return removed;
  }

  async list(tenantId: string, prefix: string, opts: StorageListOptions): Promise<StorageListPage> {
    this.assertOpen();
    const map = this.tenants.get(tenantId);
    if (!map) return { items: [], hasMore: false };
    const now = this.now();
    const keys: string[] = [];
    for (const [key, entry] of map) {
      if (isExpired(entry.expiresAt, now)) {
        map.delete(key);
      } else if (key.startsWith(prefix) && (opts.after === undefined || key > opts.after)) {
        keys.push(key);
      }
    }
    keys.sort();
    const page = keys.slice(0, opts.limit);
    return {
      items: page.map((key) => ({ key, value: (map.get(key) as StoredEntry).value })),
      hasMore: keys.length > opts.limit,
    };
  }

  /** Drops every expired entry, and tenants left empty, in one synchronous pass. */
  async sweepExpired(): Promise<number> {
    this.assertOpen();
    const now = this.now();
    let removed = 0;
    for (const [tenantId, map] of this.tenants) {
      removed += this.purgeExpired(map, now);
      if (map.size === 0) this.tenants.delete(tenantId);
    }
    for (const [id, counter] of this.counters) {
      if (counter.expiresAt <= now) {
        this.counters.delete(id);
        removed++;
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.tenants.clear();
    this.counters.clear();
    await this.sweeps.stop();
  }

  private assertOpen(): void {
    if (this.closed) throw providerClosedError('InMemoryStorageProvider');
  }

  private liveCounter(id: string, now: number): CounterRecord | undefined {
    this.assertOpen();
    const counter = this.counters.get(id);
    if (counter && counter.expiresAt <= now) {
      this.counters.delete(id);
      return undefined;
    }
    return counter;
  }

  private tenantMap(tenantId: string): Map<string, StoredEntry> {
    let map = this.tenants.get(tenantId);
    if (!map) {
      map = new Map();
      this.tenants.set(tenantId, map);
    }
    return map;
  }

  private purgeExpired(map: Map<string, StoredEntry>, now: number): number {
    let removed = 0;
    for (const [key, entry] of map) {
      if (isExpired(entry.expiresAt, now)) {
        map.delete(key);
        removed++;
      }
    }
    return removed;
  }

  /**
   * Throws `state_quota_exceeded` when writing `keys` would leave the tenant over its limit. The map's size counts
   * expired entries too, so only a write that looks over the limit pays for purging them and counting again.
   */
  private admit(tenantId: string, keys: readonly string[], operation: StorageOperation): void {
    const map = this.tenants.get(tenantId);
    if (!map) {
      if (keys.length > this.maxEntriesPerTenant) this.refuse(operation, keys, keys.length);
      return;
    }
    const now = this.now();
    const isNew = (key: string) => {
      const entry = map.get(key);
      return entry === undefined || isExpired(entry.expiresAt, now);
    };
    const added = keys.filter(isNew);
    if (added.length === 0 || map.size + added.length <= this.maxEntriesPerTenant) return;
    this.purgeExpired(map, now);
    if (map.size + added.length > this.maxEntriesPerTenant) this.refuse(operation, added, added.length);
  }

  private refuse(operation: StorageOperation, added: readonly string[], count: number): never {
    throw quotaExceededError(
      { operation, ...(count === 1 && added[0] !== undefined ? { key: added[0] } : {}) },
      this.maxEntriesPerTenant,
      count,
    );
  }

  /** The entry if present and live; an expired one is purged on the way. */
  private liveEntry(tenantId: string, key: string): StoredEntry | undefined {
    this.assertOpen();
    const map = this.tenants.get(tenantId);
    const entry = map?.get(key);
    if (!entry) return undefined;
    if (isExpired(entry.expiresAt, this.now())) {
      map?.delete(key);
      return undefined;
    }
    return entry;
  }

  private takeEntry(tenantId: string, key: string): string | null {
    const entry = this.liveEntry(tenantId, key);
    if (!entry) return null;
    this.tenants.get(tenantId)?.delete(key);
    return entry.value;
  }
}
