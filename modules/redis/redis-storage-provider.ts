// ctx.state on Redis, single node or Cluster. Each call is one round trip in the tenant's slot: a single command,
// or a MULTI when a value and the tenant's key index change together. Requires Redis >= 6.2 (GETDEL for `take`).
import type { ChainableCommander } from 'ioredis';
import { storageError } from '../../src/errors/index.js';
import type { Logger } from '../../src/index.js';
import {
  expiryFromTtl,
  providerClosedError,
  type StorageListOptions,
  type StorageListPage,
  type StorageProvider,
  type StorageSetOptions,
} from '../../src/storage/index.js';
import { decodeCodeUnits } from './code-unit-bytes.js';
import { withDeadline } from './operation-deadline.js';
import { createRedisConnection, type RedisClient, type RedisConnection } from './redis-connection.js';
import type { RedisConnectionOptions } from './redis-connection-options.js';
import { toStorageError } from './redis-errors.js';
import { execAll } from './redis-transaction.js';
import { pruneIndexMembers } from './state-index-pruning.js';
import { exclusiveBound, listRange, type TenantKeys, tenantKeys } from './state-key-layout.js';
import { encodeStoredEntry, HEADER_READ_BYTES, headerIsLive, liveValue } from './stored-entry.js';

export interface RedisStorageProviderOptions {
  /**
   * Options for a connection this provider opens and `close` quits, or a connection shared with other Redis users
   * of the app, which `close` leaves open for its owner.
   */
  connection: RedisConnectionOptions | RedisConnection;
  /** Clock in epoch milliseconds; injectable so TTL behaviour can be tested without waiting. */
  now?: () => number;
  /** Largest stored value in bytes (UTF-8); default 1 MiB. Larger writes fail with `state_value_too_large`. */
  maxValueBytes?: number;
  /** Process log for connection failures and recoveries of a connection this provider opens. */
  logger?: Logger;
}

export const DEFAULT_MAX_VALUE_BYTES = 1024 * 1024;
/** Redis rejects a PX whose deadline overflows 64 bits; 2^52 ms (~140,000 years) is as good as forever. */
const MAX_EXPIRE_AFTER_MS = 2 ** 52;

interface PreparedWrite {
  stored: string;
  /** Redis's own expiry, relative: the provider clock need not agree with Redis's, only the durations must. */
  expireAfterMs: number | undefined;
}

function isConnection(value: RedisConnectionOptions | RedisConnection): value is RedisConnection {
  return 'client' in value;
}

export class RedisStorageProvider implements StorageProvider {
  private readonly connection: RedisConnection;
  private readonly ownsConnection: boolean;
  private readonly now: () => number;
  private readonly maxValueBytes: number;
  private closed = false;

  constructor(options: RedisStorageProviderOptions) {
    this.ownsConnection = !isConnection(options.connection);
    this.connection = isConnection(options.connection)
      ? options.connection
      : createRedisConnection(options.connection, options.logger ? { logger: options.logger } : {});
    this.now = options.now ?? Date.now;
    this.maxValueBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
  }

  get(tenantId: string, key: string): Promise<string | null> {
    return this.run('get', tenantId, async (client, keys) => {
      return liveValue(await client.get(keys.valueKey(keys.member(key))), this.now());
    });
  }

  set(tenantId: string, key: string, value: string, opts?: StorageSetOptions): Promise<void> {
    return this.run('set', tenantId, async (client, keys) => {
      const write = this.prepareWrite(value, opts?.ttlSeconds);
      const member = keys.member(key);
      const transaction = client.multi();
      this.queueSet(transaction, keys.valueKey(member), write);
      transaction.zadd(keys.index, 0, member);
      await execAll(transaction);
    });
  }

  delete(tenantId: string, key: string): Promise<boolean> {
    return this.run('delete', tenantId, async (client, keys) => (await this.removeEntries(client, keys, [key])) === 1);
  }

  /** GETDEL and the index removal in one MULTI: of concurrent takes, exactly one receives the value. */
  take(tenantId: string, key: string): Promise<string | null> {
    return this.run('take', tenantId, async (client, keys) => {
      const member = keys.member(key);
      const [stored] = await execAll(client.multi().getdel(keys.valueKey(member)).zrem(keys.index, member));
      return liveValue(stored as string | null, this.now());
    });
  }

  getMany(tenantId: string, keys: readonly string[]): Promise<Map<string, string>> {
    return this.run('getMany', tenantId, async (client, layout) => {
      const unique = [...new Set(keys)];
      const found = new Map<string, string>();
      if (unique.length === 0) return found;
      const stored = await client.mget(unique.map((key) => layout.valueKey(layout.member(key))));
      const now = this.now();
      unique.forEach((key, index) => {
        const value = liveValue(stored[index] ?? null, now);
        if (value !== null) found.set(key, value);
      });
      return found;
    });
  }

  setMany(tenantId: string, entries: ReadonlyMap<string, string>, opts?: StorageSetOptions): Promise<void> {
    return this.run('setMany', tenantId, async (client, keys) => {
      // Every value is checked before anything is sent, so one bad entry leaves the store untouched.
      const writes = [...entries].map(
        ([key, value]) => [keys.member(key), this.prepareWrite(value, opts?.ttlSeconds)] as const,
      );
      if (writes.length === 0) return;
      const transaction = client.multi();
      for (const [member, write] of writes) this.queueSet(transaction, keys.valueKey(member), write);
      transaction.zadd(keys.index, ...writes.flatMap(([member]) => [0, member]));
      await execAll(transaction);
    });
  }

  deleteMany(tenantId: string, keys: readonly string[]): Promise<number> {
    return this.run('deleteMany', tenantId, (client, layout) => this.removeEntries(client, layout, keys));
  }

  list(tenantId: string, prefix: string, opts: StorageListOptions): Promise<StorageListPage> {
    return this.run('list', tenantId, async (client, keys) => {
      const { min, max } = listRange(prefix, opts.after);
      const wanted = opts.limit + 1;
      const items: Array<{ key: string; value: string }> = [];
      const gone: Buffer[] = [];
      let from = min;
      // Entries whose stamp has passed are skipped, so a page may take more than one read to fill.
      while (items.length < wanted) {
        const batch = wanted - items.length;
        const members = await client.zrangebylexBuffer(keys.index, from, max, 'LIMIT', 0, batch);
        if (members.length === 0) break;
        const stored = await client.mget(members.map((member) => keys.valueKey(member)));
        const now = this.now();
        members.forEach((member, index) => {
          const text = stored[index] ?? null;
          if (text === null) gone.push(member);
          const value = liveValue(text, now);
          if (value !== null) items.push({ key: decodeCodeUnits(member), value });
        });
        if (members.length < batch) break;
        from = exclusiveBound(members[members.length - 1] as Buffer);
      }
      if (gone.length > 0) await this.prune(client, keys, gone);
      return { items: items.slice(0, opts.limit), hasMore: items.length > opts.limit };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsConnection) await this.connection.close();
  }

  private async run<T>(
    operation: string,
    tenantId: string,
    body: (client: RedisClient, keys: TenantKeys) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw providerClosedError('RedisStorageProvider');
    try {
      const work = body(this.connection.client, tenantKeys(this.connection.keyPrefix, tenantId));
      return await withDeadline(work, this.connection.commandTimeoutMs);
    } catch (error) {
      throw toStorageError(error, operation);
    }
  }

  private prepareWrite(value: string, ttlSeconds: number | undefined): PreparedWrite {
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > this.maxValueBytes) {
      throw storageError(
        `State value of ${bytes} bytes is over the ${this.maxValueBytes}-byte limit of Redis storage`,
        {
          reason: 'state_value_too_large',
          limit: this.maxValueBytes,
          size: bytes,
        },
      );
    }
    const expiresAt = expiryFromTtl(this.now(), ttlSeconds);
    return {
      stored: encodeStoredEntry(value, expiresAt),
      expireAfterMs:
        ttlSeconds === undefined ? undefined : Math.min(MAX_EXPIRE_AFTER_MS, Math.max(1, Math.ceil(ttlSeconds * 1000))),
    };
  }

  /** A plain SET also clears an earlier expiry, as the contract requires of an overwrite without a TTL. */
  private queueSet(transaction: ChainableCommander, valueKey: Buffer, write: PreparedWrite): void {
    if (write.expireAfterMs === undefined) transaction.set(valueKey, write.stored);
    else transaction.set(valueKey, write.stored, 'PX', write.expireAfterMs);
  }

  /**
   * Deletes entries and their index members in one MULTI. DEL's own count decides which of concurrent deleters
   * removed an entry; the header read in the same transaction says whether it was still live by the provider clock.
   */
  private async removeEntries(client: RedisClient, keys: TenantKeys, names: readonly string[]): Promise<number> {
    const members = [...new Set(names)].map((name) => keys.member(name));
    if (members.length === 0) return 0;
    const transaction = client.multi();
    for (const member of members) {
      const valueKey = keys.valueKey(member);
      transaction.getrange(valueKey, 0, HEADER_READ_BYTES - 1).del(valueKey);
    }
    transaction.zrem(keys.index, ...members);
    const replies = await execAll(transaction);
    const now = this.now();
    let removed = 0;
    for (let index = 0; index < members.length; index++) {
      const header = replies[2 * index] as string;
      if (replies[2 * index + 1] === 1 && headerIsLive(header, now)) removed++;
    }
    return removed;
  }

  /** Housekeeping only: a failure here must not fail the listing that noticed the stale members. */
  private async prune(client: RedisClient, keys: TenantKeys, members: readonly Buffer[]): Promise<void> {
    await pruneIndexMembers(
      client,
      keys.index,
      members,
      members.map((member) => keys.valueKey(member)),
    ).catch(() => undefined);
  }
}
