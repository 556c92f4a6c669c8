// RedisServerEventBus on one redis-server (classic PUBLISH/SUBSCRIBE): a change published on one instance reaches
// every instance's listeners exactly once, the publisher's own from the in-process path; after Redis restarts the
// subscription comes back and the lists are re-announced, since whatever was published meanwhile is lost.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerEvent } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisServerEventBus } from '../../modules/redis/index.js';
import { redisCommand } from '../support/redis-probe.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';
import {
  capturingLogger,
  expectDeliveryRecovered,
  openedRedis,
  recordEventIds,
  recordEvents,
  redisCli,
} from './redis-event-helpers.js';
import { uniquePrefix } from './redis-test-providers.js';

const RECOVERY_TIMEOUT = { timeout: 20_000, interval: 100 };
let server: RedisSingleServer;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await server?.stop();
});

describe('RedisServerEventBus on a single node', () => {
  const opened = openedRedis(() => ({ url: server.url }));

  afterEach(async () => {
    if (!server.running) await server.restart();
  });

  async function twoInstances(logger?: Parameters<typeof opened.bus>[1]) {
    const prefix = uniquePrefix();
    const a = opened.bus(prefix);
    const b = opened.bus(prefix, logger);
    await expect.poll(() => numsub(`${prefix}:bus`), RECOVERY_TIMEOUT).toBe(2);
    return { a, b, seenOnA: recordEvents(a), seenOnB: recordEvents(b) };
  }

  it('delivers an event published on A once to B and once to A (in process, no echo)', async () => {
    const { a, b, seenOnA, seenOnB } = await twoInstances();
    const [idsOnA, idsOnB] = [recordEventIds(a), recordEventIds(b)];
    const updated: ServerEvent = { kind: 'resource_updated', uri: 'notes://1', params: { uri: 'notes://1' } };

    a.publish(updated);
    expect(seenOnA).toEqual([updated]);
    await expect.poll(() => seenOnB, RECOVERY_TIMEOUT).toEqual([updated]);

    // Redis delivers one channel in order: once B's marker is back on A, A's own echo would have arrived before it.
    b.publish({ kind: 'tools_list_changed' });
    await expect.poll(() => seenOnA.length, RECOVERY_TIMEOUT).toBe(2);
    expect(seenOnA).toEqual([updated, { kind: 'tools_list_changed' }]);
    expect(seenOnB).toEqual([updated, { kind: 'tools_list_changed' }]);
    // Each event carries one id on every instance, so a session's event store can keep it once.
    expect(idsOnB).toEqual(idsOnA);
    expect(new Set(idsOnA).size).toBe(2);
    expect(idsOnA.every((id) => typeof id === 'string')).toBe(true);
  });

  it('keeps the in-memory bus semantics for listeners: idempotent unsubscribe, a throwing listener stops no other', async () => {
    const { logger, lines } = capturingLogger();
    const prefix = uniquePrefix();
    const bus = opened.bus(prefix, logger);
    const seen: ServerEvent[] = [];
    bus.subscribe(() => {
      throw new Error('listener failed');
    });
    const unsubscribe = bus.subscribe((event) => seen.push(event));
    bus.publish({ kind: 'prompts_list_changed' });
    unsubscribe();
    unsubscribe();
    bus.publish({ kind: 'tools_list_changed' });
    expect(seen).toEqual([expect.objectContaining({ kind: 'prompts_list_changed' })]);
    expect(lines.filter((line) => line.msg === 'Change event delivery failed')).toHaveLength(2);
  });

  it('ignores what is not a change event on its channel, and warns once', async () => {
    const { logger, lines } = capturingLogger();
    const prefix = uniquePrefix();
    const { b, seenOnB } = await (async () => {
      const b = opened.bus(prefix, logger);
      await expect.poll(() => numsub(`${prefix}:bus`), RECOVERY_TIMEOUT).toBe(1);
      return { b, seenOnB: recordEvents(b) };
    })();
    for (const text of [
      'not json',
      '{"from":"x","event":{"kind":"bogus"}}',
      '{"from":"x","event":{"kind":"resource_updated"}}',
    ]) {
      await redisCommand(server.port, ['PUBLISH', b.channel, text]);
    }
    await redisCommand(server.port, [
      'PUBLISH',
      b.channel,
      '{"from":"x","event":{"kind":"tools_list_changed","extra":1}}',
    ]);
    await expect.poll(() => seenOnB, RECOVERY_TIMEOUT).toEqual([{ kind: 'tools_list_changed' }]);
    expect(lines.filter((line) => line.level === 'warning')).toHaveLength(1);
  });

  it('resubscribes after Redis restarts, re-announces the lists on B, and carries events again', async () => {
    const { logger, lines } = capturingLogger();
    const { a, seenOnB } = await twoInstances(logger);

    await server.kill();
    a.publish({ kind: 'resource_updated', uri: 'notes://lost' });
    // Long enough for several failed reconnect attempts.
    await sleep(1_500);
    await server.restart();

    await expectDeliveryRecovered(a, seenOnB, lines, RECOVERY_TIMEOUT);
  });

  it('close() unsubscribes and quits its connections; local delivery goes on', async () => {
    const prefix = uniquePrefix();
    const bus = new RedisServerEventBus({ connection: { url: server.url, keyPrefix: prefix } });
    const seen = recordEvents(bus);
    await expect.poll(() => numsub(bus.channel), RECOVERY_TIMEOUT).toBe(1);
    const clientsBefore = await clientCount();

    await bus.close();
    await bus.close();
    expect(await numsub(bus.channel)).toBe(0);
    await expect.poll(() => clientCount(), RECOVERY_TIMEOUT).toBe(clientsBefore - 2);
    bus.publish({ kind: 'tools_list_changed' });
    expect(seen).toEqual([{ kind: 'tools_list_changed' }]);
  });
});

/** Subscribers of `channel`; a case waits for them so it does not publish into the void. */
async function numsub(channel: string): Promise<number> {
  return Number((await redisCli(server.port, ['PUBSUB', 'NUMSUB', channel]))[1]);
}

async function clientCount(): Promise<number> {
  // Minus redis-cli's own connection.
  return (await redisCli(server.port, ['CLIENT', 'LIST'])).length - 1;
}
