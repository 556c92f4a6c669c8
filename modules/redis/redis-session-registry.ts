// The 2025 session registry on Redis, shared by every Kiln instance behind one load balancer: any of them can find a
// session, rebuild it and serve it. A session is one hash (see session-key-layout.ts) that expires on its own when
// nobody touches it; checks that must not race another instance (touch only what exists, evict only what is still
// stale) are scripts on that one key, so they are atomic on a single node and on a Cluster alike.
// Types only: loading this module must not load the HTTP host (a stdio server on Redis storage never needs it).
import type { SessionChange, SessionCounts, SessionRecord, SessionRegistry, StaleEviction } from 'mcp-kiln/http';
import type { Logger } from '../../src/index.js';
import { withDeadline } from './operation-deadline.js';
import { createRedisConnection, type RedisClient, type RedisConnection } from './redis-connection.js';
import type { RedisConnectionOptions } from './redis-connection-options.js';
import { toStorageError } from './redis-errors.js';
import { type SessionKeys, sessionKeys } from './session-key-layout.js';

export interface RedisSessionRegistryOptions {
  /** Options for a connection the registry opens and `close` quits, or a shared one `close` leaves open. */
  connection: RedisConnectionOptions | RedisConnection;
  /**
   * How long an untouched session record (and an instance's index) outlives its last touch. A backstop only: the
   * hosts' sweep evicts idle sessions earlier. Give it more than the stale-session timeout (the wiring uses twice).
   */
  sessionTtlMs: number;
  logger?: Logger;
}

/** Most eviction candidates one sweep looks at; the next sweep takes the rest. */
const STALE_BATCH = 500;
const SUBSCRIPTION_FIELD = 'sub:';

// KEYS[1] is the session hash in every script.
const TOUCH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local seen = tonumber(redis.call('HGET', KEYS[1], 'lastSeenAt') or '0')
if seen < tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'lastSeenAt', ARGV[1]) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return tonumber(redis.call('HGET', KEYS[1], 'revision') or '0')`;

const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if ARGV[1] == 'set' then redis.call('HSET', KEYS[1], ARGV[2], ARGV[3]) else redis.call('HDEL', KEYS[1], ARGV[2]) end
if ARGV[4] == '1' then return redis.call('HINCRBY', KEYS[1], 'revision', 1) end
return tonumber(redis.call('HGET', KEYS[1], 'revision') or '0')`;

const TAKE_OVER_STREAM = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local holder = redis.call('HGET', KEYS[1], 'streamHolder')
if holder == ARGV[1] then
  redis.call('HSET', KEYS[1], 'streamHolder', ARGV[2])
  return ARGV[2]
end
if holder then return holder end
return ''`;

const EVICT_IF_STALE = `
local seen = redis.call('HGET', KEYS[1], 'lastSeenAt')
if not seen then return 0 end
if tonumber(seen) >= tonumber(ARGV[1]) then return -1 end
return redis.call('DEL', KEYS[1])`;

interface SessionScripts {
  kilnSessionTouch(key: string, at: number, ttlMs: number): Promise<number>;
  kilnSessionUpdate(key: string, op: 'set' | 'del', field: string, value: string, replayed: '0' | '1'): Promise<number>;
  kilnSessionEvict(key: string, cutoff: number): Promise<number>;
  kilnSessionTakeOverStream(key: string, from: string, to: string): Promise<string | null>;
}

const scriptsDefined = new WeakSet<RedisClient>();

/** The client with the session scripts; ioredis sends EVALSHA and falls back to EVAL on NOSCRIPT, per node. */
function scripted(client: RedisClient): RedisClient & SessionScripts {
  if (!scriptsDefined.has(client)) {
    client.defineCommand('kilnSessionTouch', { numberOfKeys: 1, lua: TOUCH });
    client.defineCommand('kilnSessionUpdate', { numberOfKeys: 1, lua: UPDATE });
    client.defineCommand('kilnSessionEvict', { numberOfKeys: 1, lua: EVICT_IF_STALE });
    client.defineCommand('kilnSessionTakeOverStream', { numberOfKeys: 1, lua: TAKE_OVER_STREAM });
    scriptsDefined.add(client);
  }
  return client as RedisClient & SessionScripts;
}

function isConnection(value: RedisConnectionOptions | RedisConnection): value is RedisConnection {
  return 'client' in value;
}

export class RedisSessionRegistry implements SessionRegistry {
  private readonly connection: RedisConnection;
  private readonly ownsConnection: boolean;
  private readonly keys: SessionKeys;
  private readonly ttlMs: number;

  constructor(options: RedisSessionRegistryOptions) {
    this.ownsConnection = !isConnection(options.connection);
    this.connection = isConnection(options.connection)
      ? options.connection
      : createRedisConnection(options.connection, options.logger ? { logger: options.logger } : {});
    this.keys = sessionKeys(this.connection.keyPrefix);
    this.ttlMs = Math.max(1, Math.ceil(options.sessionTtlMs));
  }

  add(record: SessionRecord): Promise<void> {
    return this.run('add', async (client) => {
      const key = this.keys.session(record.id);
      const replies = await client.multi().hset(key, toHash(record)).pexpire(key, this.ttlMs).exec();
      const failed = replies?.find(([error]) => error)?.[0];
      if (!replies || failed) throw failed ?? new Error('Redis discarded the transaction');
      await client.zadd(this.keys.all, record.lastSeenAt, record.id);
    });
  }

  get(id: string): Promise<SessionRecord | undefined> {
    return this.run('get', async (client) => fromHash(await client.hgetall(this.keys.session(id))));
  }

  touch(id: string, at: number, instance: string): Promise<number | undefined> {
    return this.run('touch', async (client) => {
      const revision = await scripted(client).kilnSessionTouch(this.keys.session(id), at, this.ttlMs);
      if (revision < 0) return undefined;
      const local = this.keys.instance(instance);
      // The index refresh is bookkeeping: eviction re-checks the hash itself, so a lost refresh costs nothing.
      await client.multi().zadd(this.keys.all, at, id).zadd(local, at, id).pexpire(local, this.ttlMs).exec();
      return revision;
    });
  }

  update(id: string, change: SessionChange): Promise<number | undefined> {
    return this.run('update', async (client) => {
      const { op, field, value, replayed } = changeToField(change);
      const key = this.keys.session(id);
      const revision = await scripted(client).kilnSessionUpdate(key, op, field, value, replayed ? '1' : '0');
      return revision < 0 ? undefined : revision;
    });
  }

  takeOverStream(id: string, from: string, to: string): Promise<string | undefined> {
    return this.run('stream takeover', async (client) => {
      const holder = await scripted(client).kilnSessionTakeOverStream(this.keys.session(id), from, to);
      return holder === null ? undefined : holder;
    });
  }

  release(id: string, instance: string): Promise<void> {
    return this.run('release', async (client) => {
      await client.zrem(this.keys.instance(instance), id);
    });
  }

  remove(id: string): Promise<boolean> {
    return this.run('remove', async (client) => {
      // DEL's count decides which of concurrent removers ended the session: exactly one sees 1.
      const removed = await client.del(this.keys.session(id));
      await client.zrem(this.keys.all, id);
      return removed === 1;
    });
  }

  staleSince(cutoff: number): Promise<string[]> {
    return this.run('stale scan', (client) =>
      client.zrangebyscore(this.keys.all, '-inf', `(${cutoff}`, 'LIMIT', 0, STALE_BATCH),
    );
  }

  evictIfStale(id: string, cutoff: number): Promise<StaleEviction> {
    return this.run('eviction', async (client) => {
      const outcome = await scripted(client).kilnSessionEvict(this.keys.session(id), cutoff);
      if (outcome === -1) return 'fresh';
      // Evicted here, or gone already (expired, or another instance won): either way it leaves the index.
      await client.zrem(this.keys.all, id);
      return outcome === 1 ? 'evicted' : 'gone';
    });
  }

  count(instance: string): Promise<SessionCounts> {
    return this.run('count', async (client) => {
      const [local, cluster] = await Promise.all([
        client.zcard(this.keys.instance(instance)),
        client.zcard(this.keys.all),
      ]);
      return { local, cluster };
    });
  }

  /** Quits the connection when the registry opened it; a shared one stays open for its owner. */
  async close(): Promise<void> {
    if (this.ownsConnection) await this.connection.close();
  }

  private run<T>(operation: string, work: (client: RedisClient) => Promise<T>): Promise<T> {
    return withDeadline(work(this.connection.client), this.connection.commandTimeoutMs).catch((error: unknown) => {
      throw toStorageError(error, `session ${operation}`);
    });
  }
}

interface FieldChange {
  readonly op: 'set' | 'del';
  readonly field: string;
  readonly value: string;
  /** Whether a rebuilt session replays it, which bumps the revision (SessionRegistry's contract). */
  readonly replayed: boolean;
}

function changeToField(change: SessionChange): FieldChange {
  switch (change.kind) {
    case 'answered':
      return { op: 'set', field: 'protocolVersion', value: change.protocolVersion, replayed: false };
    case 'logLevel':
      return { op: 'set', field: 'logLevel', value: change.level, replayed: true };
    case 'subscribe':
      return { op: 'set', field: SUBSCRIPTION_FIELD + change.uri, value: '1', replayed: true };
    case 'unsubscribe':
      return { op: 'del', field: SUBSCRIPTION_FIELD + change.uri, value: '', replayed: true };
    case 'streamHolder':
      return { op: 'set', field: 'streamHolder', value: change.instance, replayed: false };
  }
}

function toHash(record: SessionRecord): Record<string, string> {
  const fields: Record<string, string> = {
    id: record.id,
    createdAt: String(record.createdAt),
    lastSeenAt: String(record.lastSeenAt),
    initialize: JSON.stringify(record.initialize),
    clientCapabilities: JSON.stringify(record.clientCapabilities),
    clientInfo: JSON.stringify(record.clientInfo),
    revision: String(record.revision),
  };
  if (record.protocolVersion !== undefined) fields.protocolVersion = record.protocolVersion;
  if (record.logLevel !== undefined) fields.logLevel = record.logLevel;
  if (record.streamHolder !== undefined) fields.streamHolder = record.streamHolder;
  if (record.principal !== undefined) fields.principal = record.principal;
  for (const uri of record.subscriptions) fields[SUBSCRIPTION_FIELD + uri] = '1';
  return fields;
}

function fromHash(fields: Record<string, string>): SessionRecord | undefined {
  // A hash a racing touch or update left without its body (it cannot create one, but be strict) is no session.
  if (fields.id === undefined || fields.initialize === undefined) return undefined;
  const subscriptions = Object.keys(fields)
    .filter((field) => field.startsWith(SUBSCRIPTION_FIELD))
    .map((field) => field.slice(SUBSCRIPTION_FIELD.length));
  return {
    id: fields.id,
    createdAt: Number(fields.createdAt),
    lastSeenAt: Number(fields.lastSeenAt),
    initialize: JSON.parse(fields.initialize),
    clientCapabilities: JSON.parse(fields.clientCapabilities ?? '{}'),
    clientInfo: JSON.parse(fields.clientInfo ?? '{}'),
    subscriptions,
    revision: Number(fields.revision ?? 0),
    ...(fields.protocolVersion === undefined ? {} : { protocolVersion: fields.protocolVersion }),
    ...(fields.logLevel === undefined ? {} : { logLevel: fields.logLevel as SessionRecord['logLevel'] }),
    ...(fields.streamHolder === undefined ? {} : { streamHolder: fields.streamHolder }),
    ...(fields.principal === undefined ? {} : { principal: fields.principal }),
  };
}
