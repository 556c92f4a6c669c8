// Per-principal shares with two instances on one Redis: a caller flooding both instances with sessions and listen
// streams holds its share on each and no more, while another caller keeps opening sessions and streams on both. A
// new session ends the caller's least recently used idle one everywhere; a copy rebuilt on the other instance counts
// against the caller's share there too, and making room for it drops only a copy: the session lives on.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServing, http } from '../../modules/http/index.js';
import { type RedisSessionHosting, startRedisSessionHosting } from '../../modules/redis/index.js';
import { createTestingModule, type TestingApp } from '../../src/testing/index.js';
import { HttpFixtureModule } from '../http/helpers/http-fixture.module.js';
import { jsonRpcError } from '../http/helpers/http-server.js';
import {
  from,
  holdStream,
  initialize,
  listen,
  open,
  openSession,
  toolsListStatus,
} from '../http/helpers/share-clients.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';
import { uniquePrefix } from './redis-test-providers.js';

const FLOODER = from('203.0.113.9');
const NEIGHBOUR = from('198.51.100.30');

interface Instance {
  readonly testing: TestingApp;
  readonly serving: HttpServing;
  readonly sessions: RedisSessionHosting;
}

let redis: RedisSingleServer;
let instances: [Instance, Instance];

async function startInstance(keyPrefix: string): Promise<Instance> {
  const testing = await createTestingModule({ imports: [HttpFixtureModule] }).compile({
    env: {
      MCP_TRANSPORT_TYPE: 'http',
      MCP_HTTP_PORT: '0',
      MCP_SESSION_MODE: 'stateful',
      MCP_HTTP_TRUST_PROXY: 'true',
      MCP_HTTP_MAX_SESSIONS: '20',
      MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL: '3',
      MCP_HTTP_MAX_LISTEN_STREAMS: '20',
      MCP_HTTP_MAX_LISTEN_STREAMS_PER_PRINCIPAL: '2',
    },
  });
  const sessions = await startRedisSessionHosting({
    connection: { url: redis.url, keyPrefix },
    staleSessionTimeoutMs: 30 * 60_000,
  });
  const serving = await testing.app.serve(http({ registry: sessions.registry, peers: sessions.peers }));
  return { testing, serving, sessions };
}

beforeAll(async () => {
  redis = await startRedisServer();
  const keyPrefix = uniquePrefix();
  instances = [await startInstance(keyPrefix), await startInstance(keyPrefix)];
});

afterEach(() => {
  for (const abort of open.splice(0)) abort.abort();
});

afterAll(async () => {
  for (const instance of instances ?? []) {
    await instance.serving.close();
    await instance.testing.close();
    await instance.sessions.close();
  }
  await redis?.stop();
});

describe('per-principal shares across two instances on Redis', () => {
  it('holds a flooder to 3 sessions per instance (6 of 40 slots) while the neighbour opens sessions on both', async () => {
    const [a, b] = instances.map((instance) => instance.serving.endpointUrl) as [string, string];
    const flooded: Array<{ endpoint: string; sessionId: string }> = [];
    for (let i = 0; i < 30; i++) {
      const endpoint = i % 2 === 0 ? a : b;
      flooded.push({ endpoint, sessionId: await openSession(endpoint, FLOODER) });
    }
    const live = flooded.filter((_, index) => index >= 24);
    for (const { endpoint, sessionId } of live) expect(await toolsListStatus(endpoint, FLOODER, sessionId)).toBe(200);
    // Ended everywhere, so neither instance serves them.
    for (const { sessionId } of flooded.slice(0, 24)) {
      expect(await toolsListStatus(a, FLOODER, sessionId)).toBe(404);
      expect(await toolsListStatus(b, FLOODER, sessionId)).toBe(404);
    }
    expect((await instances[0].sessions.registry.count('probe')).cluster).toBe(6);

    const neighbour = [await openSession(a, NEIGHBOUR), await openSession(b, NEIGHBOUR)];
    for (const sessionId of neighbour) {
      expect(await toolsListStatus(a, NEIGHBOUR, sessionId)).toBe(200);
      expect(await toolsListStatus(b, NEIGHBOUR, sessionId)).toBe(200);
    }
  });

  it('counts copies rebuilt on the other instance against the caller’s share there', async () => {
    const [a, b] = instances.map((instance) => instance.serving.endpointUrl) as [string, string];
    const caller = from('192.0.2.44');
    const opened: string[] = [];
    for (let i = 0; i < 3; i++) opened.push(await openSession(a, caller));
    // Used through b: b rebuilds copies and holds 3 of the caller's.
    for (const sessionId of opened) expect(await toolsListStatus(b, caller, sessionId)).toBe(200);
    // A new session on b ends the caller's least recently used one, everywhere.
    const fourth = await openSession(b, caller);
    expect(await toolsListStatus(a, caller, opened[0] as string)).toBe(404);
    expect(await toolsListStatus(b, caller, fourth)).toBe(200);

    // Rebuilding yet another of its sessions on b drops only b's least recently used copy: that session lives on.
    const fifth = await openSession(a, caller);
    const copiesOnB = instances[1].serving.liveSessions();
    expect(await toolsListStatus(b, caller, fifth)).toBe(200);
    expect(instances[1].serving.liveSessions()).toBe(copiesOnB);
    for (const sessionId of [opened[1], opened[2], fourth, fifth] as string[]) {
      expect(await toolsListStatus(a, caller, sessionId)).toBe(200);
    }
    expect(await toolsListStatus(b, caller, opened[1] as string)).toBe(200);
  });

  it('refuses a flooder’s busy sessions and extra listen streams on each instance, never the neighbour’s', async () => {
    const [a, b] = instances.map((instance) => instance.serving.endpointUrl) as [string, string];
    const flooder = from('203.0.113.10');
    for (const endpoint of [a, b]) {
      for (let i = 0; i < 3; i++) await holdStream(endpoint, flooder, await openSession(endpoint, flooder));
      const { response } = await initialize(endpoint, flooder);
      expect(response.status).toBe(429);
      expect((await jsonRpcError(response)).error.data).toMatchObject({ reason: 'session_limit', share: 'principal' });

      for (let i = 0; i < 2; i++) expect((await listen(endpoint, flooder)).status).toBe(200);
      const refused = await listen(endpoint, flooder);
      expect(refused.status).toBe(429);
      expect((await jsonRpcError(refused)).error.data).toMatchObject({ reason: 'listen_limit', share: 'principal' });
    }
    for (const endpoint of [a, b]) {
      const sessionId = await openSession(endpoint, NEIGHBOUR);
      await holdStream(endpoint, NEIGHBOUR, sessionId);
      for (let i = 0; i < 2; i++) expect((await listen(endpoint, NEIGHBOUR)).status).toBe(200);
    }
  });
});
