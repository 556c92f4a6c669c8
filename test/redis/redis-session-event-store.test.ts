// RedisSessionEventStore on one redis-server: the shared SessionEventStore cases, what sharing Redis between Kiln
// instances adds (a session's frames resumable on any instance), and an outage that must never reach the SDK.
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEventStore } from '../../modules/http/index.js';
import {
  RedisSessionEventStore,
  redisSessionEventStores,
  type SessionEventRetention,
} from '../../modules/redis/index.js';
import { sessionEventsKey } from '../../modules/redis/redis-session-event-store.js';
import { describeSessionEventStore } from '../http/session-event-store-compliance.js';
import { redisCommand } from '../support/redis-probe.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';
import { untilRecovered } from './outage-expectations.js';
import { capturingLogger, openedRedis, redisStoreSubject } from './redis-event-helpers.js';

const note = (method: string): JSONRPCMessage => ({ jsonrpc: '2.0', method });
const RETENTION: SessionEventRetention = { maxEvents: 100, ttlMs: 60_000 };
let server: RedisSingleServer;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await server?.stop();
});

async function replayed(store: SessionEventStore, lastEventId: string) {
  const sent: { id: string; message: JSONRPCMessage }[] = [];
  const streamId = await store.replayEventsAfter(lastEventId, {
    send: async (id, message) => {
      sent.push({ id, message });
    },
  });
  return { streamId, sent };
}

describe('RedisSessionEventStore on a single node', () => {
  const opened = openedRedis(() => ({ url: server.url }));
  describeSessionEventStore('shared cases', () => redisStoreSubject(() => opened.connection()));

  it('lets a second instance resume what the first stored, and both append to one sequence', async () => {
    const prefix = `kiln-test-${randomUUID().slice(0, 8)}`;
    const onA = redisSessionEventStores(opened.connection(prefix), RETENTION)('session-1');
    const onB = redisSessionEventStores(opened.connection(prefix), RETENTION)('session-1');
    const first = await onA.storeEvent('_GET_stream', note('a'));
    const second = await onA.storeEvent('_GET_stream', note('b'));
    const third = await onB.storeEvent('_GET_stream', note('c'));

    expect(await onB.getStreamIdForEventId?.(first)).toBe('_GET_stream');
    expect(await replayed(onB, first)).toEqual({
      streamId: '_GET_stream',
      sent: [
        { id: second, message: note('b') },
        { id: third, message: note('c') },
      ],
    });
    const otherSession = redisSessionEventStores(opened.connection(prefix), RETENTION)('session-2');
    expect((await replayed(otherSession, first)).sent).toEqual([]);
  });

  it('keeps one Stream per session in its hash tag, trimmed exactly to maxEvents and expiring after the TTL', async () => {
    const prefix = `kiln-test-${randomUUID().slice(0, 8)}`;
    const store = new RedisSessionEventStore({
      connection: opened.connection(prefix),
      sessionId: 'a{b}:c',
      retention: { maxEvents: 1_000, ttlMs: 30_000 },
    });
    for (let i = 0; i < 1_010; i++) await store.storeEvent('_GET_stream', note(`n${i}`));

    const key = sessionEventsKey(prefix, 'a{b}:c');
    expect(key).toMatch(new RegExp(`^${prefix}:ev:\\{s[A-Za-z0-9_-]+\\}$`));
    expect(await redisCommand(server.port, ['XLEN', key])).toBe('1000');
    const ttl = Number(await redisCommand(server.port, ['PTTL', key]));
    expect(ttl).toBeGreaterThan(29_000);
    expect(ttl).toBeLessThanOrEqual(31_000);
  });

  it('never repeats an id after clear, which keeps the Stream and its last id', async () => {
    const prefix = `kiln-test-${randomUUID().slice(0, 8)}`;
    const store = new RedisSessionEventStore({
      connection: opened.connection(prefix),
      sessionId: 's',
      retention: RETENTION,
    });
    const before = await store.storeEvent('_GET_stream', note('a'));
    await store.clear();
    expect(await redisCommand(server.port, ['EXISTS', sessionEventsKey(prefix, 's')])).toBe('1');
    const after = [];
    for (let i = 0; i < 5; i++) after.push(await store.storeEvent('_GET_stream', note(`b${i}`)));
    const sequence = (id: string) => id.split('_')[0]!.split('-').map(BigInt);
    for (const id of after) {
      const [ms, seq] = sequence(id);
      const [beforeMs, beforeSeq] = sequence(before);
      expect(ms! > beforeMs! || (ms === beforeMs && seq! > beforeSeq!)).toBe(true);
    }
  });

  it('resumes from an id whose Stream has expired, replaying nothing', async () => {
    const prefix = `kiln-test-${randomUUID().slice(0, 8)}`;
    const store = new RedisSessionEventStore({
      connection: opened.connection(prefix),
      sessionId: 's',
      retention: RETENTION,
    });
    const id = await store.storeEvent('_GET_stream', note('a'));
    await redisCommand(server.port, ['DEL', sessionEventsKey(prefix, 's')]);
    expect(await store.getStreamIdForEventId(id)).toBe('_GET_stream');
    expect(await replayed(store, id)).toEqual({ streamId: '_GET_stream', sent: [] });
  });
});

describe('RedisSessionEventStore when Redis fails', () => {
  const opened = openedRedis(() => ({ url: server.url }));

  afterEach(async () => {
    if (!server.running) await server.restart();
  });

  it('still answers storeEvent, promptly, with an id that resumes its stream and replays nothing; warns once', async () => {
    const { logger, lines } = capturingLogger();
    const stores = redisSessionEventStores(opened.connection(), RETENTION, logger);
    const [one, two] = [stores('session-1'), stores('session-2')];
    const stored = await one.storeEvent('_GET_stream', note('before'));
    await server.kill();

    const ids: string[] = [];
    for (const [store, method] of [
      [one, 'a'],
      [two, 'b'],
      [one, 'c'],
    ] as const) {
      const started = performance.now();
      ids.push(await store.storeEvent('post-1', note(method)));
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    expect(ids).toEqual(['unstored_post-1', 'unstored_post-1', 'unstored_post-1']);
    expect(await one.getStreamIdForEventId?.(ids[0]!)).toBe('post-1');
    expect(await replayed(one, ids[0]!)).toEqual({ streamId: 'post-1', sent: [] });
    await expect(one.clear()).resolves.toBeUndefined();
    // Reading needs Redis: the SDK answers a failed replay with a 500 the client may retry.
    await expect(replayed(one, stored)).rejects.toMatchObject({ data: { reason: 'storage_unavailable' } });

    const warnings = lines.filter((line) => line.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/could not store SSE frames/);

    await server.restart();
    const later = await untilRecovered(async () => {
      const id = await one.storeEvent('_GET_stream', note('after'));
      if (id.startsWith('unstored')) throw new Error('not yet');
      return id;
    });
    expect((await replayed(one, stored)).sent.map((frame) => frame.id)).toEqual([later]);
    expect(lines.map((line) => line.msg)).toContain('Redis stores SSE frames again');
  });
});
