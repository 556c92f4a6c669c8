// Durable storage on a local directory: one directory per tenant, one JSON file `{ v, exp? }` per key. Every change
// lands by `rename`, which is atomic across processes, so any number of provider instances may share one root.
import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { McpError, storageError } from '../errors/index.js';
import { expiryFromTtl, isExpired } from './entry-expiry.js';
import { entryPath, findEntries, TEMP_DIR_NAME, tenantDirectory } from './filesystem-layout.js';
import {
  providerClosedError,
  type StorageEntry,
  type StorageListOptions,
  type StorageListPage,
  type StorageProvider,
  type StorageSetOptions,
} from './storage-provider.js';

export interface FilesystemStorageProviderOptions {
  /** Directory holding all tenants; created on first write. */
  root: string;
  /** Clock in epoch milliseconds; injectable so TTL behaviour can be tested without waiting. */
  now?: () => number;
}

interface EntryRecord {
  v: string;
  exp?: number;
}

/** Entry files read at once while filling a list page. */
const LIST_READ_BATCH = 32;

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function toStorageError(error: unknown, action: string): McpError {
  if (error instanceof McpError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return storageError(`Filesystem storage could not ${action}: ${detail}`, { reason: 'storage_io' }, { cause: error });
}

function parseRecord(text: string, path: string): EntryRecord {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    throw storageError(`Corrupt storage entry ${path}: not JSON`, { reason: 'storage_corrupt' }, { cause: error });
  }
  const candidate = record as Partial<EntryRecord> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.v !== 'string' ||
    (candidate.exp !== undefined && typeof candidate.exp !== 'number')
  ) {
    throw storageError(`Corrupt storage entry ${path}: expected { v: string, exp?: number }`, {
      reason: 'storage_corrupt',
    });
  }
  return { v: candidate.v, ...(candidate.exp === undefined ? {} : { exp: candidate.exp }) };
}

export class FilesystemStorageProvider implements StorageProvider {
  private readonly root: string;
  private readonly tempDir: string;
  private readonly now: () => number;
  private closed = false;

  constructor(options: FilesystemStorageProviderOptions) {
    this.root = options.root;
    this.tempDir = join(options.root, TEMP_DIR_NAME);
    this.now = options.now ?? Date.now;
  }

  async get(tenantId: string, key: string): Promise<string | null> {
    this.assertOpen();
    return (await this.readLive(this.pathOf(tenantId, key)))?.v ?? null;
  }

  async set(tenantId: string, key: string, value: string, opts?: StorageSetOptions): Promise<void> {
    this.assertOpen();
    const exp = expiryFromTtl(this.now(), opts?.ttlSeconds);
    await this.write(this.pathOf(tenantId, key), { v: value, ...(exp === undefined ? {} : { exp }) });
  }

  async delete(tenantId: string, key: string): Promise<boolean> {
    return (await this.take(tenantId, key)) !== null;
  }

  async take(tenantId: string, key: string): Promise<string | null> {
    this.assertOpen();
    const record = await this.claim(this.pathOf(tenantId, key));
    return record && !isExpired(record.exp, this.now()) ? record.v : null;
  }

  async getMany(tenantId: string, keys: readonly string[]): Promise<Map<string, string>> {
    this.assertOpen();
    const unique = [...new Set(keys)];
    const values = await Promise.all(unique.map((key) => this.readLive(this.pathOf(tenantId, key))));
    const found = new Map<string, string>();
    unique.forEach((key, index) => {
      const record = values[index];
      if (record) found.set(key, record.v);
    });
    return found;
  }

  async setMany(tenantId: string, entries: ReadonlyMap<string, string>, opts?: StorageSetOptions): Promise<void> {
    this.assertOpen();
    // The TTL is checked once, before any write, so a bad TTL leaves the batch entirely unwritten.
    const exp = expiryFromTtl(this.now(), opts?.ttlSeconds);
    const writes = [...entries].map(([key, value]) =>
      this.write(this.pathOf(tenantId, key), { v: value, ...(exp === undefined ? {} : { exp }) }),
    );
    await Promise.all(writes);
  }

  async deleteMany(tenantId: string, keys: readonly string[]): Promise<number> {
    this.assertOpen();
    const removed = await Promise.all([...new Set(keys)].map((key) => this.delete(tenantId, key)));
    return removed.filter(Boolean).length;
  }

  async list(tenantId: string, prefix: string, opts: StorageListOptions): Promise<StorageListPage> {
    this.assertOpen();
    let candidates: Array<{ key: string; path: string }>;
    try {
      candidates = await findEntries(tenantDirectory(this.root, tenantId), prefix);
    } catch (error) {
      throw toStorageError(error, 'list entries');
    }
    const { after } = opts;
    candidates = candidates.filter((entry) => after === undefined || entry.key > after);
    candidates.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

    // One more live entry than the limit tells us whether another page exists. Entries can vanish or expire between
    // the directory walk and the read, so candidates are read until enough live ones are found.
    const items: StorageEntry[] = [];
    let next = 0;
    while (items.length <= opts.limit && next < candidates.length) {
      const batch = candidates.slice(next, next + Math.min(LIST_READ_BATCH, opts.limit + 1 - items.length));
      next += batch.length;
      const records = await Promise.all(batch.map((entry) => this.readLive(entry.path)));
      batch.forEach((entry, index) => {
        const record = records[index];
        if (record) items.push({ key: entry.key, value: record.v });
      });
    }
    return { items: items.slice(0, opts.limit), hasMore: items.length > opts.limit };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw providerClosedError('FilesystemStorageProvider');
  }

  private pathOf(tenantId: string, key: string): string {
    return entryPath(tenantDirectory(this.root, tenantId), key);
  }

  private tempPath(): string {
    return join(this.tempDir, `${randomUUID()}.tmp`);
  }

  /** The live record at `path`, or null; an expired record found here is purged. */
  private async readLive(path: string): Promise<EntryRecord | null> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw toStorageError(error, 'read an entry');
    }
    const record = parseRecord(text, path);
    if (!isExpired(record.exp, this.now())) return record;
    await this.purgeExpired(path);
    return null;
  }

  /** Readers see either the old file or the new one, never a partial write: the bytes go to a temp file first. */
  private async write(path: string, record: EntryRecord): Promise<void> {
    const temp = this.tempPath();
    try {
      await mkdir(this.tempDir, { recursive: true });
      await writeFile(temp, JSON.stringify(record), 'utf8');
      await mkdir(dirname(path), { recursive: true });
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw toStorageError(error, 'write an entry');
    }
  }

  /**
   * Renames the entry file to a fresh temp name and returns that name, or null when there was no file. Rename is
   * atomic, so when several callers (in any process) race for one file, exactly one succeeds; the rest see ENOENT.
   */
  private async moveAside(path: string, action: string): Promise<string | null> {
    const temp = this.tempPath();
    try {
      await mkdir(this.tempDir, { recursive: true });
      await rename(path, temp);
      return temp;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw toStorageError(error, action);
    }
  }

  /** Takes the entry out of place and returns what it held; the atomic step behind `take` and `delete`. */
  private async claim(path: string): Promise<EntryRecord | null> {
    const temp = await this.moveAside(path, 'claim an entry');
    if (temp === null) return null;
    try {
      return parseRecord(await readFile(temp, 'utf8'), path);
    } catch (error) {
      throw toStorageError(error, 'read a claimed entry');
    } finally {
      await rm(temp, { force: true });
    }
  }

  /**
   * Removes an entry seen expired. Between that read and the removal another writer may have stored a fresh value,
   * so the claimed file is checked again and a live one is put back, unless a newer one already took its place.
   */
  private async purgeExpired(path: string): Promise<void> {
    const temp = await this.moveAside(path, 'purge an expired entry');
    if (temp === null) return;
    try {
      const record = parseRecord(await readFile(temp, 'utf8'), path);
      if (!isExpired(record.exp, this.now())) await this.restore(temp, path);
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** `link` fails with EEXIST instead of overwriting, so a value written meanwhile is never clobbered. */
  private async restore(temp: string, path: string): Promise<void> {
    try {
      await link(temp, path);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw toStorageError(error, 'restore an entry');
    }
  }
}
