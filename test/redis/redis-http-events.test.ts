// The Redis event store and bus plugged into the real HTTP host, as an app wires them:
// `http({ bus: new RedisServerEventBus(...), eventStores: redisSessionEventStores(...) })`. A 2025 client resumes its
// GET stream from Redis; a change published on one instance reaches the other instance's 2025 session and 2026-07-28
// listen stream, and the publishing instance's own session exactly once.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createRedisConnection,
  type RedisConnection,
  RedisServerEventBus,
  redisSessionEventStores,
} from '../../modules/redis/index.js';
import { connectHttpClient, notificationsOf } from '../http/helpers/http-sdk-client.js';
import { type NotifyingServer, startNotifyingServer } from '../http/helpers/notifying-server.js';
import { RawHandshakeSession } from '../http/helpers/raw-mcp-http.js';
import { frameMethod } from '../http/helpers/sse-frames.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';
import { redisCli } from './redis-event-helpers.js';
import { uniquePrefix } from './redis-test-providers.js';

const TOOLS_CHANGED = 'notifications/tools/list_changed';
const PROMPTS_CHANGED = 'notifications/prompts/list_changed';
const RESOURCES_CHANGED = 'notifications/resources/list_changed';

let redis: RedisSingleServer;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  redis = await startRedisServer();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await redis?.stop();
});

/** One Kiln instance: its own Redis connection and bus (closed after the HTTP host), as a separate process would. */
async function startInstance(keyPrefix: string): Promise<NotifyingServer> {
  const connection: RedisConnection = createRedisConnection({ url: redis.url, keyPrefix });
  const bus = new RedisServerEventBus({ connection });
  cleanups.push(async () => {
    await bus.close();
    await connection.close();
  });
  const server = await startNotifyingServer({}, (app) => ({
    bus,
    eventStores: redisSessionEventStores(connection, app.config.http.resumability, app.logger),
  }));
  cleanups.push(() => server.close());
  return server;
}

/** Closes a stream or client after the case, before the instances. */
function track<T extends { close(): unknown }>(opened: T): T {
  cleanups.push(async () => {
    await opened.close();
  });
  return opened;
}

describe('the HTTP host on Redis', () => {
  it('resumes a 2025 GET stream from Redis with exactly the frames the client missed, then carries on live', async () => {
    const running = await startInstance(uniquePrefix());
    const session = await RawHandshakeSession.open(running.endpointUrl);
    const stream = track(await session.openStream());
    running.notifier.toolsChanged();
    const first = await stream.next();
    expect(frameMethod(first)).toBe(TOOLS_CHANGED);
    expect(first.id).toMatch(/^\d+-\d+__GET_stream$/);

    stream.close();
    running.notifier.resourcesChanged();
    running.notifier.promptsChanged();

    const resumed = track(await session.resumeStream(first.id as string));
    const replayed = await resumed.take(2);
    expect(replayed.map(frameMethod)).toEqual([RESOURCES_CHANGED, PROMPTS_CHANGED]);
    running.notifier.toolsChanged();
    const live = await resumed.next();
    expect(frameMethod(live)).toBe(TOOLS_CHANGED);
    expect(new Set([first.id, ...replayed.map((frame) => frame.id), live.id]).size).toBe(4);
  });

  it("carries a change from one instance to the other's sessions of both eras, and once to its own", async () => {
    const prefix = uniquePrefix();
    const publisher = await startInstance(prefix);
    const other = await startInstance(prefix);
    const own = track(await connectHttpClient(publisher.endpointUrl, 'handshake'));
    const handshake = track(await connectHttpClient(other.endpointUrl, 'handshake'));
    const envelope = track(await connectHttpClient(other.endpointUrl, 'envelope'));
    await own.streamOpen;
    await handshake.streamOpen;
    await envelope.client.listen({ toolsListChanged: true });
    await expect.poll(async () => (await redisCli(redis.port, ['PUBSUB', 'NUMSUB', `${prefix}:bus`]))[1]).toBe('2');

    publisher.notifier.toolsChanged();
    await vi.waitFor(() => {
      expect(notificationsOf(handshake.wire, TOOLS_CHANGED)).toHaveLength(1);
      expect(notificationsOf(envelope.wire, TOOLS_CHANGED)).toHaveLength(1);
    });
    // Once the other instance has it, Redis has also echoed it to the publisher, which must have dropped it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(notificationsOf(own.wire, TOOLS_CHANGED)).toHaveLength(1);
  });
});
