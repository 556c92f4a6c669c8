// The SSE event store and the change-event bus on a real 3-master Redis Cluster: the shared event store cases, a
// session resumable on another instance, storeEvent answering while the session's master is down; the bus over
// sharded pub/sub (no classic PUBLISH broadcast to every node), and its recovery when the channel's master restarts.
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, ServerEvent } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEventStore } from '../../modules/http/index.js';
import { redisSessionEventStores } from '../../modules/redis/index.js';
import { sessionEventsKey } from '../../modules/redis/redis-session-event-store.js';
import { describeSessionEventStore } from '../http/session-event-store-compliance.js';
import { type RedisClusterServers, startRedisCluster } from '../support/redis-cluster.js';
import { redisCommand } from '../support/redis-probe.js';
import type { RedisNode } from '../support/redis-servers.js';
import { untilRecovered } from './outage-expectations.js';
import {
  capturingLogger,
  expectDeliveryRecovered,
  openedRedis,
  recordEvents,
  redisCli,
  redisStoreSubject,
} from './redis-event-helpers.js';
import { uniquePrefix } from './redis-test-providers.js';

const note = (method: string): JSONRPCMessage => ({ jsonrpc: '2.0', method });
const RETENTION = { maxEvents: 100, ttlMs: 60_000 };
const RECOVERY_TIMEOUT = { timeout: 30_000, interval: 100 };
let cluster: RedisClusterServers;

beforeAll(async () => {
  cluster = await startRedisCluster();
});

afterAll(async () => {
  await cluster?.stop();
});

async function masterOf(key: string): Promise<RedisNode> {
  const reporter = cluster.nodes.find((node) => node.running);
  if (!reporter) throw new Error('No Cluster node is running');
  return cluster.ownerOfSlot(Number(await redisCommand(reporter.port, ['CLUSTER', 'KEYSLOT', key])));
}

async function replayed(store: SessionEventStore, lastEventId: string) {
  const sent: string[] = [];
  await store.replayEventsAfter(lastEventId, {
    send: async (id) => {
      sent.push(id);
    },
  });
  return sent;
}

describe('RedisSessionEventStore on a 3-master Cluster', () => {
  const opened = openedRedis(() => ({ clusterNodes: cluster.addresses }));
  describeSessionEventStore('shared cases', () => redisStoreSubject(() => opened.connection()));

  it('lets a second instance resume what the first stored, for sessions on every master', async () => {
    const prefix = uniquePrefix();
    const onA = redisSessionEventStores(opened.connection(prefix), RETENTION);
    const onB = redisSessionEventStores(opened.connection(prefix), RETENTION);
    const masters = new Set<number>();
    for (let index = 0; masters.size < cluster.nodes.length; index++) {
      const sessionId = `session-${index}`;
      masters.add((await masterOf(sessionEventsKey(prefix, sessionId))).port);
      const first = await onA(sessionId).storeEvent('_GET_stream', note('a'));
      const second = await onA(sessionId).storeEvent('_GET_stream', note('b'));
      expect(await onB(sessionId).getStreamIdForEventId?.(first)).toBe('_GET_stream');
      expect(await replayed(onB(sessionId), first)).toEqual([second]);
    }
  });

  it("answers storeEvent while the session's master is down, warns once, and stores again once it is back", async () => {
    const { logger, lines } = capturingLogger();
    const prefix = uniquePrefix();
    const stores = redisSessionEventStores(opened.connection(prefix), RETENTION, logger);
    const sessionId = randomUUID();
    const store = stores(sessionId);
    const before = await store.storeEvent('_GET_stream', note('before'));
    const master = await masterOf(sessionEventsKey(prefix, sessionId));
    await master.kill();
    try {
      for (const method of ['a', 'b']) {
        const started = performance.now();
        expect(await store.storeEvent('_GET_stream', note(method))).toBe('unstored__GET_stream');
        expect(performance.now() - started).toBeLessThan(3_000);
      }
      expect(lines.filter((line) => line.level === 'warning')).toHaveLength(1);
    } finally {
      await master.restart();
    }
    const after = await untilRecovered(async () => {
      const id = await store.storeEvent('_GET_stream', note('after'));
      if (id.startsWith('unstored')) throw new Error('not yet');
      return id;
    });
    expect(await replayed(store, before)).toEqual([after]);
    await cluster.waitHealthy();
  }, 60_000);
});

describe('RedisServerEventBus on a 3-master Cluster', () => {
  const opened = openedRedis(() => ({ clusterNodes: cluster.addresses }));

  async function shardSubscribers(channel: string): Promise<number> {
    const owner = await masterOf(channel);
    return Number((await redisCli(owner.port, ['PUBSUB', 'SHARDNUMSUB', channel]))[1]);
  }

  async function twoInstances(logger?: Parameters<typeof opened.bus>[1]) {
    const prefix = uniquePrefix();
    const a = opened.bus(prefix);
    const b = opened.bus(prefix, logger);
    await expect.poll(() => shardSubscribers(a.channel), RECOVERY_TIMEOUT).toBe(2);
    return { a, b, seenOnA: recordEvents(a), seenOnB: recordEvents(b) };
  }

  it('delivers an event published on A once to B and once to A, over sharded pub/sub only', async () => {
    const { a, b, seenOnA, seenOnB } = await twoInstances();
    for (const node of cluster.nodes) {
      expect((await redisCli(node.port, ['PUBSUB', 'NUMSUB', a.channel]))[1]).toBe('0');
    }
    const updated: ServerEvent = { kind: 'resource_updated', uri: 'notes://1' };

    a.publish(updated);
    expect(seenOnA).toEqual([updated]);
    await expect.poll(() => seenOnB, RECOVERY_TIMEOUT).toEqual([updated]);
    b.publish({ kind: 'prompts_list_changed' });
    await expect.poll(() => seenOnA.length, RECOVERY_TIMEOUT).toBe(2);
    expect(seenOnA).toEqual([updated, { kind: 'prompts_list_changed' }]);
    expect(seenOnB).toEqual([updated, { kind: 'prompts_list_changed' }]);
  });

  it("resubscribes after the channel's master restarts, re-announces the lists on B, and carries events again", async () => {
    const { logger, lines } = capturingLogger();
    const { a, seenOnB } = await twoInstances(logger);
    const owner = await masterOf(a.channel);

    await owner.kill();
    try {
      a.publish({ kind: 'resource_updated', uri: 'notes://lost' });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      await owner.restart();
    }

    await expectDeliveryRecovered(a, seenOnB, lines, RECOVERY_TIMEOUT);
    await cluster.waitHealthy();
  }, 60_000);
});
