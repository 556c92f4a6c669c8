// ctx.state on Redis, single node or Cluster. Each call is one round trip in the tenant's slot: a single command,
// or a MULTI when a value and the tenant's key index change together. Requires Redis >= 6.2 (GETDEL for `take`).

import calculateSlot from 'cluster-key-slot';
import { type ChainableCommander, Cluster } from 'ioredis';
import { storageError } from '../../src/errors/index.js';
import type { Logger } from '../../src/index.js';
import {
  type CounterAdd,
  type CounterReading,
  expiryFromTtl,
  providerClosedError,
  type RateDecision,
  type RateRule,
  type StorageListOptions,
  type StorageListPage,
  type StorageProvider,
  type StorageSetOptions,
} from '../../src/storage/index.js';
import { decodeCodeUnits } from './code-unit-bytes.js';
import { ADD_COUNTER, CLAIM_RATE, countsOf } from './counter-scripts.js';
import { withDeadline } from './operation-deadline.js';
import { createRedisConnection, type RedisClient, type RedisConnection } from './redis-connection.js';
import type { RedisConnectionOptions } from './redis-connection-options.js';
import { storageUnavailable, toStorageError, toWriteError, type WriteEffect } from './redis-errors.js';
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
/** KEYS: value key, index. ARGV: stored text, PX or '', provider clock now, index member. 1 when it stored. */
const SET_IF_ABSENT = `
local header = redis.call('GETRANGE', KEYS[1], 0, ${HEADER_READ_BYTES - 1})
if header ~= '' then
  local separator = string.find(header, '|', 1, true)
  if separator == nil or separator == 1 then return 0 end
  local expiresAt = tonumber(string.sub(header, 1, separator - 1))
  if expiresAt == nil or tonumber(ARGV[3]) < expiresAt then return 0 end
end
if ARGV[2] == '' then
  redis.call('SET', KEYS[1], ARGV[1])
else
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
redis.call('ZADD', KEYS[2], 0, ARGV[4])
return 1
`;

/** Whether a command for the tenant goes out on a ready connection; on any other it waits in a queue, unsent. */
function targetReady(client: RedisClient, keys: TenantKeys): boolean {
  if (!(client instanceof Cluster)) return client.status === 'ready';
  if (client.status !== 'ready') return false;
  const owner = client.slots[calculateSlot(keys.index)]?.[0];
  const master = client.nodes('master').find((node) => `${node.options.host}:${node.options.port}` === owner);
  return master?.status === 'ready';
}

/** ioredis's refusal of a queued command it dropped: it will not be sent later. */
function neverSent(error: unknown): boolean {
  return (
    error instanceof Error && (error.message === 'Connection is closed.' || error.name === 'MaxRetriesPerRequestError')
  );
}

/** Resolves true once the client is ready, false after `ms` (or when it ends for good). */
function untilReady(client: RedisClient, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('end', onEnd);
      resolve(ready);
    };
    const onReady = () => done(true);
    const onEnd = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    client.once('ready', onReady);
    client.once('end', onEnd);
  });
}

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
  private readyWait: Promise<boolean> | undefined;

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
    return this.write('set', 'repeatable', tenantId, async (client, keys) => {
      const write = this.prepareWrite(value, opts?.ttlSeconds);
      const member = keys.member(key);
      const transaction = client.multi();
      this.queueSet(transaction, keys.valueKey(member), write);
      transaction.zadd(keys.index, 0, member);
      await execAll(transaction);
    });
  }

  /**
   * One script: the entry counts as present only while its stamp is live by the provider clock (as every read
   * judges it), so an entry expired by that clock but not yet by Redis is replaced. Of concurrent calls, Redis runs
   * one script at a time, so exactly one stores.
   */
  setIfAbsent(tenantId: string, key: string, value: string, opts?: StorageSetOptions): Promise<boolean> {
    return this.write('setIfAbsent', 'consuming', tenantId, async (client, keys) => {
      const write = this.prepareWrite(value, opts?.ttlSeconds);
      const member = keys.member(key);
      const expireAfter = write.expireAfterMs === undefined ? '' : String(write.expireAfterMs);
      const stored = await client.eval(
        SET_IF_ABSENT,
        2,
        keys.valueKey(member),
        keys.index,
        write.stored,
        expireAfter,
        String(this.now()),
        member,
      );
      return stored === 1;
    });
  }

  /** One script: the rate's check and its new state are a single step on the server. */
  claimRate(tenantId: string, key: string, rule: RateRule): Promise<RateDecision> {
    return this.write('claimRate', 'consuming', tenantId, async (client, keys) => {
      const [allowed, remaining, retryAfterMs] = (await CLAIM_RATE.run(
        client,
        [keys.counterKey(key)],
        [String(this.now()), String(rule.limit), String(rule.windowMs)],
      )) as [number, number, number];
      return { allowed: allowed === 1, remaining, retryAfterMs };
    });
  }

  addCounter(tenantId: string, key: string, add: CounterAdd): Promise<CounterReading> {
    return this.write('addCounter', 'consuming', tenantId, async (client, keys) => {
      const pairs = Object.entries(add.deltas).flatMap(([field, delta]) => [field, String(delta)]);
      const [applied, flat] = (await ADD_COUNTER.run(
        client,
        [keys.counterKey(key)],
        [String(Math.max(1, Math.ceil(add.ttlMs))), add.cap?.field ?? '', String(add.cap?.limit ?? 0), ...pairs],
      )) as [number, string[]];
      return { applied: applied === 1, values: countsOf(flat) };
    });
  }

  readCounters(tenantId: string, keys: readonly string[]): Promise<Map<string, Record<string, number>>> {
    return this.run('readCounters', tenantId, async (client, layout) => {
      const found = new Map<string, Record<string, number>>();
      if (keys.length === 0) return found;
      const pipeline = client.pipeline();
      for (const key of keys) pipeline.hgetall(layout.counterKey(key));
      const replies = (await pipeline.exec()) ?? [];
      replies.forEach(([error, reply], index) => {
        if (error) throw error;
        const values = reply as Record<string, string>;
        if (Object.keys(values).length === 0) return;
        found.set(keys[index] as string, Object.fromEntries(Object.entries(values).map(([f, v]) => [f, Number(v)])));
      });
      return found;
    });
  }

  delete(tenantId: string, key: string): Promise<boolean> {
    return this.write(
      'delete',
      'repeatable',
      tenantId,
      async (client, keys) => (await this.removeEntries(client, keys, [key])) === 1,
    );
  }

  /** GETDEL and the index removal in one MULTI: of concurrent takes, exactly one receives the value. */
  take(tenantId: string, key: string): Promise<string | null> {
    return this.write('take', 'consuming', tenantId, async (client, keys) => {
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
    return this.write('setMany', 'repeatable', tenantId, async (client, keys) => {
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
    return this.write('deleteMany', 'repeatable', tenantId, (client, layout) =>
      this.removeEntries(client, layout, keys),
    );
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

  /**
   * A write is handed to a single node's client only once it is ready: one queued while the client reconnects could
   * run after its caller was told it failed. Until then a failure means nothing was sent (storage_unavailable, safe to
   * retry). A Cluster client is ready while one of its masters is down; a write for that master is queued, and the
   * client's own refusal of it (the connection closed) means it was never sent. Any other failure of a write handed
   * over leaves its outcome unknown (storage_outcome_unknown).
   */
  private async write<T>(
    operation: string,
    effect: WriteEffect,
    tenantId: string,
    body: (client: RedisClient, keys: TenantKeys) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw providerClosedError('RedisStorageProvider');
    const { client, commandTimeoutMs } = this.connection;
    const startedAt = performance.now();
    if (
      !(client instanceof Cluster) &&
      client.status !== 'ready' &&
      !(await this.untilReady(client, commandTimeoutMs))
    ) {
      throw storageUnavailable(operation, new Error(`Redis connection not ready (${client.status})`));
    }
    const remainingMs = Math.max(1, commandTimeoutMs - Math.round(performance.now() - startedAt));
    const keys = tenantKeys(this.connection.keyPrefix, tenantId);
    const sentOnReady = targetReady(client, keys);
    try {
      return await withDeadline(body(client, keys), remainingMs);
    } catch (error) {
      throw !sentOnReady && neverSent(error)
        ? toStorageError(error, operation)
        : toWriteError(error, operation, effect);
    }
  }

  /** One wait for readiness shared by every write that arrives meanwhile (one listener pair, not one per write). */
  private untilReady(client: RedisClient, ms: number): Promise<boolean> {
    this.readyWait ??= untilReady(client, ms).finally(() => {
      this.readyWait = undefined;
    });
    return this.readyWait;
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
