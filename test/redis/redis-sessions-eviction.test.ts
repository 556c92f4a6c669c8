// Idle eviction with two hosts on one Redis registry: every instance sweeps, exactly one wins the removal of a stale
// session and cleans up, and after it neither instance serves the session; a session whose GET stream one instance
// holds stays alive for both, until the stream closes. A copy idle on one instance is dropped there while the
// session lives on, and comes back on its next request.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpServing, http } from '../../modules/http/index.js';
import { type RedisSessionHosting, startRedisSessionHosting } from '../../modules/redis/index.js';
import { LOGGER } from '../../src/di/tokens.js';
import { createLogger } from '../../src/logging/index.js';
import { createTestingModule, type TestingApp } from '../../src/testing/index.js';
import { HttpFixtureModule } from '../http/helpers/http-fixture.module.js';
import { handshakeToolsList, openRawSession, post, sessionHeaders } from '../http/helpers/http-server.js';
import { type CapturedLines, captureDestination } from '../logging/capture-destination.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';
import { uniquePrefix } from './redis-test-providers.js';

/** Sweeps run every 200 ms; Redis drops untouched records after 800 ms, later than any sweep would. */
const STALE_MS = 400;

interface Instance {
  readonly testing: TestingApp;
  readonly serving: HttpServing;
  readonly sessions: RedisSessionHosting;
  readonly log: CapturedLines;
}

let redis: RedisSingleServer;
let instances: [Instance, Instance];

async function startInstance(keyPrefix: string): Promise<Instance> {
  const log = captureDestination();
  const testing = await createTestingModule({ imports: [HttpFixtureModule] })
    .overrideProvider(LOGGER)
    .useValue(createLogger({ level: 'info', name: 'kiln', destination: log }))
    .compile({
      env: {
        MCP_TRANSPORT_TYPE: 'http',
        MCP_HTTP_PORT: '0',
        MCP_SESSION_MODE: 'stateful',
        MCP_STATEFUL_SESSION_STALE_TIMEOUT_MS: String(STALE_MS),
      },
    });
  const sessions = await startRedisSessionHosting({
    connection: { url: redis.url, keyPrefix },
    staleSessionTimeoutMs: STALE_MS,
  });
  const serving = await testing.app.serve(http({ registry: sessions.registry, peers: sessions.peers }));
  return { testing, serving, sessions, log };
}

beforeAll(async () => {
  redis = await startRedisServer();
  const keyPrefix = uniquePrefix();
  instances = [await startInstance(keyPrefix), await startInstance(keyPrefix)];
});

afterAll(async () => {
  for (const instance of instances ?? []) {
    await instance.serving.close();
    await instance.testing.close();
    await instance.sessions.close();
  }
  await redis?.stop();
});

const evictions = (sessionId: string) =>
  instances
    .flatMap(({ log }) => log.lines)
    .filter((line) => line.msg === 'Evicting idle MCP session' && line.sessionId === sessionId).length;

async function status(endpoint: string, sessionId: string): Promise<number> {
  const response = await post(endpoint, handshakeToolsList(), sessionHeaders(sessionId));
  await response.text();
  return response.status;
}

describe('idle eviction across instances', () => {
  it('removes a stale session once, everywhere, and spares one whose GET stream is open anywhere', async () => {
    const [opener, other] = instances;
    const idle = await openRawSession(opener.serving.endpointUrl);
    const streaming = await openRawSession(opener.serving.endpointUrl);
    // Both instances serve both sessions before they go quiet.
    expect(await status(other.serving.endpointUrl, idle)).toBe(200);
    expect(await status(other.serving.endpointUrl, streaming)).toBe(200);
    const listening = new AbortController();
    const stream = await fetch(opener.serving.endpointUrl, {
      headers: { accept: 'text/event-stream', ...sessionHeaders(streaming) },
      signal: listening.signal,
    });
    expect(stream.status).toBe(200);

    await vi.waitFor(() => expect(evictions(idle)).toBe(1), { timeout: 5_000, interval: 50 });
    // The other instance's copy of the streaming session idled out there, but the session did not.
    await vi.waitFor(() => expect(other.serving.liveSessions()).toBe(0), { timeout: 5_000, interval: 50 });
    await new Promise((resolve) => setTimeout(resolve, 2 * STALE_MS));
    expect(evictions(idle)).toBe(1);
    expect(evictions(streaming)).toBe(0);
    expect(await status(opener.serving.endpointUrl, idle)).toBe(404);
    expect(await status(other.serving.endpointUrl, idle)).toBe(404);
    expect(await status(other.serving.endpointUrl, streaming)).toBe(200);

    // The stream was what kept it: once it closes, the session idles out like any other, once.
    listening.abort();
    await vi.waitFor(() => expect(evictions(streaming)).toBe(1), { timeout: 5_000, interval: 50 });
    await vi.waitFor(() => expect(opener.serving.liveSessions() + other.serving.liveSessions()).toBe(0));
    expect(await status(opener.serving.endpointUrl, streaming)).toBe(404);
  });
});
