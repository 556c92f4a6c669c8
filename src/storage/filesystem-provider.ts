// Durable storage on a local directory: one directory per tenant, one JSON file `{ v, exp? }` per key, readable by
// the server's user only. Every change lands by `rename`, which is atomic across processes, so any number of
// provider instances may share one root.
import { McpError } from '../errors/mcp-error.js';
import { type CounterAdd, type CounterReading, counterMethods, type RateDecision, type RateRule } from './counters.js';
import { expiryFromTtl, isExpired } from './entry-expiry.js';
import { FilesystemCounters } from './filesystem-counters.js';
import { EntryFiles } from './filesystem-entry-files.js';
import { entryPath, findEntries, tenantDirectory } from './filesystem-layout.js';
import { FilesystemQuota } from './filesystem-quota.js';
import { CorruptEntryFile, decodeRecord, type EntryRecord, encodeRecord } from './filesystem-record.js';
import { FilesystemSweeper } from './filesystem-sweep.js';
import {
  corruptEntryError,
  logStorageFailure,
  quotaExceededError,
  type StorageFailureSubject,
  type StorageLogger,
  type StorageOperation,
  storageIoError,
} from './storage-errors.js';
import { resolveStorageLimits, type StorageLimitOptions } from './storage-limits.js';
import {
  providerClosedError,
  type StorageEntry,
  type StorageListOptions,
  type StorageListPage,
  type StorageProvider,
  type StorageSetOptions,
} from './storage-provider.js';
import { SweepSchedule } from './sweep-schedule.js';

export interface FilesystemStorageProviderOptions extends StorageLimitOptions {
  /** Directory holding all tenants; created on first write. */
  root: string;
  /** Clock in epoch milliseconds; injectable so TTL behaviour can be tested without waiting. */
  now?: () => number;
  /** Receives what clients are never told: paths, errno codes, which entry was corrupt. */
  logger?: StorageLogger;
  /** Entry files one periodic sweep reads at most; the next sweep resumes where it stopped. */
  maxFilesPerSweep?: number;
}

/** Entry files read at once while filling a list page. */
const LIST_READ_BATCH = 32;
const DEFAULT_MAX_FILES_PER_SWEEP = 1000;

export class FilesystemStorageProvider implements StorageProvider {
  private readonly root: string;
  private readonly now: () => number;
  private readonly logger: StorageLogger | undefined;
  private readonly files: EntryFiles;
  private readonly quota: FilesystemQuota;
  private readonly sweeper: FilesystemSweeper;
  private readonly sweeps: SweepSchedule;
  private readonly counterFiles: FilesystemCounters;
  private readonly counters: ReturnType<typeof counterMethods>;
  private closed = false;

  constructor(options: FilesystemStorageProviderOptions) {
    const limits = resolveStorageLimits(options);
    this.root = options.root;
    this.now = options.now ?? Date.now;
    this.logger = options.logger;
    this.files = new EntryFiles(options.root, this.now);
    this.counterFiles = new FilesystemCounters(options.root);
    this.counters = counterMethods(this.counterFiles, this.now);
    this.quota = new FilesystemQuota(limits.maxEntriesPerTenant, this.files, this.now);
    this.sweeper = new FilesystemSweeper(
      options.root,
      this.files,
      options.maxFilesPerSweep ?? DEFAULT_MAX_FILES_PER_SWEEP,
    );
    // Files from earlier runs or other instances may be expiring already, so the schedule starts right away.
    this.sweeps = new SweepSchedule(
      () => this.sweepExpired(),
      limits.sweepIntervalMs,
      (error) => this.logger?.warning({ err: error }, 'Filesystem storage sweep failed'),
    );
    this.sweeps.start();
  }

  async get(tenantId: string, key: string): Promise<string | null> {
    const record = await this.run({ operation: 'get', tenantId, key }, () =>
      this.files.readLive(this.pathOf(tenantId, key)),
    );
    return record?.v ?? null;
  }

  async set(tenantId: string, key: string, value: string, opts?: StorageSetOptions): Promise<void> {
    this.assertOpen();
    const exp = expiryFromTtl(this.now(), opts?.ttlSeconds);
    const subject: StorageFailureSubject = { operation: 'set', tenantId, key };
    await this.run(subject, async () => {
      await this.admit(tenantId, [key], 'set');
      await this.files.write(this.pathOf(tenantId, key), encodeRecord(value, exp));
    });
  }

  /** The entry file is linked into place, which fails rather than replace a file another writer put there first. */
  async setIfAbsent(tenantId: string, key: string, value: string, opts?: StorageSetOptions): Promise<boolean> {
    this.assertOpen();
    const exp = expiryFromTtl(this.now(), opts?.ttlSeconds);
    return this.run({ operation: 'setIfAbsent', tenantId, key }, async () => {
      const path = this.pathOf(tenantId, key);
      // An expired entry is purged on the way, so it does not count as present.
      if ((await this.files.readLive(path)) !== null) return false;
      await this.admit(tenantId, [key], 'setIfAbsent');
      return this.files.create(path, encodeRecord(value, exp));
    });
  }

  async delete(tenantId: string, key: string): Promise<boolean> {
    return this.remove(tenantId, key, 'delete');
  }

  /** A corrupt entry is consumed and rejects `storage_corrupt`, so a retry finds the key empty. */
  async take(tenantId: string, key: string): Promise<string | null> {
    return this.run({ operation: 'take', tenantId, key }, async () => {
      const path = this.pathOf(tenantId, key);
      const text = await this.claim(tenantId, path);
      if (text === null) return null;
      const record = decodeRecord(text, path);
      return isExpired(record.exp, this.now()) ? null : record.v;
    });
  }

  async getMany(tenantId: string, keys: readonly string[]): Promise<Map<string, string>> {
    this.assertOpen();
    const unique = [...new Set(keys)];
    const values = await Promise.all(
      unique.map((key) =>
        this.run({ operation: 'getMany', tenantId, key }, () => this.files.readLive(this.pathOf(tenantId, key))),
      ),
    );
    const found = new Map<string, string>();
    unique.forEach((key, index) => {
      const record = values[index];
      if (record) found.set(key, record.v);
    });
    return found;
  }

  async setMany(tenantId: string, entries: ReadonlyMap<string, string>, opts?: StorageSetOptions): Promise<void> {
    this.assertOpen();
    // The TTL and the quota are checked once, before any write, so a refused batch leaves nothing written.
    const exp = expiryFromTtl(this.now(), opts?.ttlSeconds);
    await this.run({ operation: 'setMany', tenantId }, () => this.admit(tenantId, [...entries.keys()], 'setMany'));
    const writes = [...entries].map(([key, value]) =>
      this.run({ operation: 'setMany', tenantId, key }, () =>
        this.files.write(this.pathOf(tenantId, key), encodeRecord(value, exp)),
      ),
    );
    await Promise.all(writes);
  }

  async deleteMany(tenantId: string, keys: readonly string[]): Promise<number> {
    this.assertOpen();
    const removed = await Promise.all([...new Set(keys)].map((key) => this.remove(tenantId, key, 'deleteMany')));
    return removed.filter(Boolean).length;
  }

  async list(tenantId: string, prefix: string, opts: StorageListOptions): Promise<StorageListPage> {
    const subject: StorageFailureSubject = { operation: 'list', tenantId, prefix };
    return this.run(subject, async () => {
      const { after } = opts;
      const candidates = (await findEntries(tenantDirectory(this.root, tenantId), prefix))
        .filter((entry) => after === undefined || entry.key > after)
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

      // One more live entry than the limit tells us whether another page exists. Entries can vanish, expire or turn
      // out corrupt between the directory walk and the read, so candidates are read until enough live ones are found.
      const items: StorageEntry[] = [];
      let next = 0;
      while (items.length <= opts.limit && next < candidates.length) {
        const batch = candidates.slice(next, next + Math.min(LIST_READ_BATCH, opts.limit + 1 - items.length));
        next += batch.length;
        const records = await Promise.all(
          batch.map((entry) => this.readListed(entry.path, { ...subject, key: entry.key })),
        );
        batch.forEach((entry, index) => {
          const record = records[index];
          if (record) items.push({ key: entry.key, value: record.v });
        });
      }
      return { items: items.slice(0, opts.limit), hasMore: items.length > opts.limit };
    });
  }

  /** One bounded pass over the root (see FilesystemSweeper); the periodic sweep calls it, so may a test. */
  claimRate(tenantId: string, key: string, rule: RateRule): Promise<RateDecision> {
    return this.run({ operation: 'claimRate', tenantId, key }, () => this.counters.claimRate(tenantId, key, rule));
  }

  addCounter(tenantId: string, key: string, add: CounterAdd): Promise<CounterReading> {
    return this.run({ operation: 'addCounter', tenantId, key }, () => this.counters.addCounter(tenantId, key, add));
  }

  readCounters(tenantId: string, keys: readonly string[]): Promise<Map<string, Record<string, number>>> {
    return this.run({ operation: 'readCounters', tenantId }, () => this.counters.readCounters(tenantId, keys));
  }

  async sweepExpired(): Promise<number> {
    this.assertOpen();
    return (await this.sweeper.sweep()) + (await this.counterFiles.sweep(this.now()));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.sweeps.stop();
  }

  private assertOpen(): void {
    if (this.closed) throw providerClosedError('FilesystemStorageProvider');
  }

  private pathOf(tenantId: string, key: string): string {
    return entryPath(tenantDirectory(this.root, tenantId), key);
  }

  /**
   * Runs one step of a call and turns anything the filesystem threw into its client-facing StorageError, logging
   * the detail (path, errno, syscall) the client is not given.
   */
  private async run<T>(subject: StorageFailureSubject, work: () => Promise<T>): Promise<T> {
    this.assertOpen();
    try {
      return await work();
    } catch (error) {
      if (error instanceof McpError) throw error;
      if (error instanceof CorruptEntryFile) {
        logStorageFailure(this.logger, 'error', 'Filesystem storage found a corrupt entry', subject, error);
        throw corruptEntryError(subject, error);
      }
      logStorageFailure(this.logger, 'error', 'Filesystem storage failed', subject, error);
      throw storageIoError(subject, error);
    }
  }

  /** A corrupt entry must not hide the rest of the tenant's entries from `list`; `get` of its key still reports it. */
  private async readListed(path: string, subject: StorageFailureSubject): Promise<EntryRecord | null> {
    try {
      return await this.files.readLive(path);
    } catch (error) {
      if (!(error instanceof CorruptEntryFile)) throw error;
      logStorageFailure(
        this.logger,
        'warning',
        'Filesystem storage skipped a corrupt entry while listing',
        subject,
        error,
      );
      return null;
    }
  }

  /** Takes the entry file out of place (see EntryFiles.claim) and tells the quota a file is gone. */
  private async claim(tenantId: string, path: string): Promise<string | null> {
    const text = await this.files.claim(path);
    if (text !== null) this.quota.removed(tenantDirectory(this.root, tenantId), 1);
    return text;
  }

  /** A corrupt entry is removed and counted: the caller asked for it gone, and nobody can read it anyway. */
  private remove(tenantId: string, key: string, operation: StorageOperation): Promise<boolean> {
    return this.run({ operation, tenantId, key }, async () => {
      const path = this.pathOf(tenantId, key);
      const text = await this.claim(tenantId, path);
      if (text === null) return false;
      try {
        return !isExpired(decodeRecord(text, path).exp, this.now());
      } catch (error) {
        if (error instanceof CorruptEntryFile) return true;
        throw error;
      }
    });
  }

  /** Throws `state_quota_exceeded` when writing `keys` would add entries beyond the tenant's limit. */
  private async admit(tenantId: string, keys: readonly string[], operation: StorageOperation): Promise<void> {
    const dir = tenantDirectory(this.root, tenantId);
    const present = await Promise.all(keys.map((key) => this.files.exists(entryPath(dir, key))));
    const added = keys.filter((_, index) => !present[index]);
    if (await this.quota.fits(dir, added.length)) return;
    const key = added.length === 1 ? added[0] : undefined;
    throw quotaExceededError({ operation, ...(key === undefined ? {} : { key }) }, this.quota.limit, added.length);
  }
}
