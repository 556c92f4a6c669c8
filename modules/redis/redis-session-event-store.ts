// SSE resumability for one 2025 session on Redis, so a client can resume on any instance: one Stream per session,
// in the session's own hash tag, holding the frames of all its SSE streams. Same contract as the in-memory store of
// mcp-kiln/http (ids unique across the session's streams and naming their stream, replay of one stream strictly
// after an id, retention by count and age), except that a Redis failure never reaches the SDK.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { CHANGE_EVENT_ID_META } from '../../src/host/index.js';
import type { Logger } from '../../src/index.js';
import { isPrimingEvent, type SessionEventStore, type SessionEventStoreFactory } from '../http/index.js';
import { withDeadline } from './operation-deadline.js';
import { OutageWarning } from './outage-warning.js';
import type { RedisClient, RedisConnection } from './redis-connection.js';
import { toStorageError } from './redis-errors.js';
import { execAll } from './redis-transaction.js';
import {
  compareEntryIds,
  parseEventId,
  parseStreamEntryId,
  type StreamEntryId,
  storedEventId,
  unstoredEventId,
} from './session-event-id.js';

export interface SessionEventRetention {
  /** Frames kept per session, newest first (Redis trims exactly, `MAXLEN =`). */
  readonly maxEvents: number;
  /** Frames older than this are not replayed; a session's Stream expires this long (plus a second) after its last frame. */
  readonly ttlMs: number;
  /** Clock in epoch milliseconds that stamps and ages frames; injectable so TTL tests need not wait. */
  readonly now?: () => number;
}

export interface RedisSessionEventStoreOptions {
  /** Shared by every session's store (and usually the rest of the app); a store never closes it. */
  readonly connection: RedisConnection;
  readonly sessionId: string;
  readonly retention: SessionEventRetention;
  /** Where frames Redis could not store are reported: one warning per outage, not one per frame. */
  readonly logger?: Logger;
  /** @internal Shared by the stores of one factory, so an outage is reported once rather than once per session. */
  readonly outage?: OutageWarning;
}

/**
 * Between reconnect attempts ioredis holds a command until the next attempt, up to two seconds later; every frame
 * of every session would wait that long for an id. In these states the store does not ask Redis at all.
 */
const OUTAGE_STATUSES = new Set(['reconnecting', 'close', 'end']);
/**
 * A write that failed may have waited up to the command timeout (a Cluster master that is down answers nothing
 * for a while). The store then stops asking Redis for a while, doubling per failure, so a session pays that wait
 * a few times per outage rather than on every frame; its frames meanwhile get unstored ids.
 */
const MIN_SKIP_WRITES_MS = 500;
const MAX_SKIP_WRITES_MS = 8_000;
/** XRANGE page size for replay and counting. */
const PAGE = 500;
/**
 * Redis deletes a session's Stream this long after the TTL, so the frame stamps (the store's clock) rather than
 * Redis's timer decide when a frame is too old, even for one exactly `ttlMs` old.
 */
const EXPIRY_GRACE_MS = 1_000;

/**
 * KEYS: the session's Stream, the marker of one change event. ARGV: MAXLEN, expiry (ms), stream id, stamp, message.
 * Appends the frame unless the marker names one already, and answers the entry id either way.
 */
const APPEND_ONCE = `
local existing = redis.call('GET', KEYS[2])
if existing then return existing end
local xid = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[1], '*', 's', ARGV[3], 't', ARGV[4], 'm', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], xid, 'PX', ARGV[2])
return xid`;

/** The cross-instance id of a change notification (see CHANGE_EVENT_ID_META), if it carries one. */
function changeEventIdOfMessage(message: JSONRPCMessage): string | undefined {
  const params = (message as { params?: { _meta?: Record<string, unknown> } }).params;
  const id = params?._meta?.[CHANGE_EVENT_ID_META];
  return typeof id === 'string' ? id : undefined;
}

interface Frame {
  readonly streamId: string;
  readonly storedAt: number;
  readonly message: JSONRPCMessage;
}

/** `PREFIX:ev:{sSESSION}`, the session id base64url-encoded so `{`, `}` and `:` cannot break the hash tag. */
export function sessionEventsKey(keyPrefix: string, sessionId: string): string {
  const tag = `s${Buffer.from(sessionId, 'utf8').toString('base64url')}`;
  return `${keyPrefix === '' ? '' : `${keyPrefix}:`}ev:{${tag}}`;
}

export class RedisSessionEventStore implements SessionEventStore {
  private readonly connection: RedisConnection;
  private readonly key: string;
  private readonly maxEvents: number;
  private readonly ttlMs: number;
  private readonly expireAfterMs: number;
  private readonly now: () => number;
  private readonly outage: OutageWarning;
  private skipWritesMs = 0;
  private skipWritesUntil = 0;

  constructor(options: RedisSessionEventStoreOptions) {
    this.connection = options.connection;
    this.key = sessionEventsKey(options.connection.keyPrefix, options.sessionId);
    this.maxEvents = Math.max(0, Math.floor(options.retention.maxEvents));
    this.ttlMs = options.retention.ttlMs;
    this.expireAfterMs = Math.max(1, Math.ceil(options.retention.ttlMs)) + EXPIRY_GRACE_MS;
    this.now = options.retention.now ?? Date.now;
    this.outage = options.outage ?? sseFrameOutage(options.logger);
  }

  /**
   * The SDK awaits this before writing each frame and does not catch: a rejection would lose the frame itself
   * (a tool result, say). So a Redis failure is logged and answered with an id that resumes but replays nothing.
   */
  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    if (performance.now() < this.skipWritesUntil) return unstoredEventId(streamId);
    try {
      const xid = await withDeadline(this.append(streamId, message), this.connection.commandTimeoutMs);
      this.skipWritesMs = 0;
      this.outage.succeeded();
      return storedEventId(xid, streamId);
    } catch (error) {
      this.skipWritesMs = Math.min(Math.max(2 * this.skipWritesMs, MIN_SKIP_WRITES_MS), MAX_SKIP_WRITES_MS);
      this.skipWritesUntil = performance.now() + this.skipWritesMs;
      this.outage.failed(error);
      return unstoredEventId(streamId);
    }
  }

  /**
   * The stream of an id this store issued, evicted or not; undefined for ids it cannot have issued. Once the
   * session's Stream has expired nothing tells old ids from forged ones, and resuming from either replays nothing,
   * so both are accepted.
   */
  async getStreamIdForEventId(id: string): Promise<string | undefined> {
    const parsed = parseEventId(id);
    if (parsed?.kind !== 'stored') return parsed?.streamId;
    const last = await this.redis('look up an event id', (client) => lastGeneratedId(client, this.key));
    return last === undefined || compareEntryIds(parsed.entry, last) <= 0 ? parsed.streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) throw new Error(`Unrecognised Last-Event-ID ${JSON.stringify(lastEventId)}.`);
    if (parsed.kind === 'unstored') return parsed.streamId;
    const oldest = this.now() - this.ttlMs;
    await this.eachFrameAfter('replay events', parsed.entry.xid, async (xid, frame) => {
      // Priming frames carry no message; they only mark a resumption point.
      if (frame.streamId !== parsed.streamId || frame.storedAt < oldest || isPrimingEvent(frame.message)) return;
      await send(storedEventId(xid, frame.streamId), frame.message);
    });
    return parsed.streamId;
  }

  /**
   * Drops every frame but keeps the Stream (and its last id), so later ids never repeat cleared ones: DEL would
   * reset the id sequence. Never rejects; leftovers expire with the Stream.
   */
  async clear(): Promise<void> {
    try {
      await this.redis('clear', (client) => client.xtrim(this.key, 'MAXLEN', 0));
    } catch (error) {
      this.outage.failed(error);
    }
  }

  /** Frames retained right now, priming frames included (for tests and metrics). */
  async size(): Promise<number> {
    const oldest = this.now() - this.ttlMs;
    let count = 0;
    await this.eachFrameAfter('count events', '-', (_, frame) => {
      if (frame.storedAt >= oldest) count++;
    });
    return count;
  }

  private async append(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.ensureConnected();
    const eventId = changeEventIdOfMessage(message);
    if (eventId !== undefined) {
      // Every instance with a copy of the session stores a change event; the first keeps it, the others get its id.
      const stored = await this.connection.client.eval(
        APPEND_ONCE,
        2,
        this.key,
        `${this.key}:once:${eventId}`,
        String(this.maxEvents),
        String(this.expireAfterMs),
        streamId,
        String(this.now()),
        JSON.stringify(message),
      );
      return stored as string;
    }
    const fields = ['s', streamId, 't', String(this.now()), 'm', JSON.stringify(message)];
    const transaction = this.connection.client
      .multi()
      .xadd(this.key, 'MAXLEN', '=', this.maxEvents, '*', ...fields)
      .pexpire(this.key, this.expireAfterMs);
    const [xid] = await execAll(transaction);
    return xid as string;
  }

  /** Visits the frames after `after` (an entry id, or `-` for all) in order, one XRANGE page at a time. */
  private async eachFrameAfter(
    operation: string,
    after: string,
    visit: (xid: string, frame: Frame) => Promise<void> | void,
  ): Promise<void> {
    let from = after === '-' ? after : `(${after}`;
    for (;;) {
      const page = await this.redis(operation, (client) => client.xrange(this.key, from, '+', 'COUNT', PAGE));
      for (const [xid, fields] of page) {
        const frame = decodeFrame(fields);
        if (frame) await visit(xid, frame);
      }
      const last = page.at(-1);
      if (!last || page.length < PAGE) return;
      from = `(${last[0]}`;
    }
  }

  private async redis<T>(operation: string, command: (client: RedisClient) => Promise<T>): Promise<T> {
    try {
      this.ensureConnected();
      return await withDeadline(command(this.connection.client), this.connection.commandTimeoutMs);
    } catch (error) {
      throw toStorageError(error, `SSE event store ${operation}`);
    }
  }

  private ensureConnected(): void {
    const { status } = this.connection.client;
    if (OUTAGE_STATUSES.has(status)) throw new Error(`Redis connection is down (${status})`);
  }
}

/**
 * The factory the HTTP host takes as `eventStores`: one store per session, all on `connection` (which stays open
 * for its owner), reporting a Redis outage once for all sessions.
 */
export function redisSessionEventStores(
  connection: RedisConnection,
  retention: SessionEventRetention,
  logger?: Logger,
): SessionEventStoreFactory {
  const outage = sseFrameOutage(logger);
  return (sessionId) => new RedisSessionEventStore({ connection, sessionId, retention, outage });
}

function sseFrameOutage(logger: Logger | undefined): OutageWarning {
  return new OutageWarning(
    logger,
    'Redis could not store SSE frames; they are delivered but cannot be replayed to a client that reconnects',
    'Redis stores SSE frames again',
  );
}

/** The Stream's last-generated-id, which XTRIM keeps; undefined when the Stream does not exist. */
async function lastGeneratedId(client: RedisClient, key: string): Promise<StreamEntryId | undefined> {
  let info: unknown;
  try {
    info = await client.xinfo('STREAM', key);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('ERR no such key')) return undefined;
    throw error;
  }
  const fields = info as unknown[];
  const value = fields[fields.indexOf('last-generated-id') + 1];
  return typeof value === 'string' ? parseStreamEntryId(value) : undefined;
}

/** A Stream entry's fields as stored by `append`; undefined for an entry this store did not write. */
function decodeFrame(fields: readonly string[]): Frame | undefined {
  const values = new Map<string, string>();
  for (let index = 0; index + 1 < fields.length; index += 2)
    values.set(fields[index] as string, fields[index + 1] as string);
  const streamId = values.get('s');
  const storedAt = Number(values.get('t'));
  const message = values.get('m');
  if (streamId === undefined || message === undefined || !Number.isFinite(storedAt)) return undefined;
  return { streamId, storedAt, message: JSON.parse(message) as JSONRPCMessage };
}
