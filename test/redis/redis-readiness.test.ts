// Readiness and shutdown of a real Kiln process on a real redis-server: /readyz checks storage, the session registry
// and the change-event bus, and turns 503 (naming what failed) while Redis is down, while /healthz stays 200
// (`degraded`): the process is alive, only not useful. On SIGTERM readiness is 503 at once, MCP requests are served
// through the ready grace, and the process exits 0; a second SIGTERM ends it at once with 1.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelopeHeaders, envelopeRequest, post } from '../http/helpers/http-server.js';
import { assertBuilt, SESSIONS_FIXTURE } from '../integration/helpers/built-servers.js';
import { type KilnProcess, startKilnProcess } from '../support/kiln-process.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';

const WAIT = { timeout: 15_000, interval: 100 };

let redis: RedisSingleServer;

beforeAll(async () => {
  assertBuilt(SESSIONS_FIXTURE);
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis?.stop();
});

function start(env: Record<string, string> = {}): Promise<KilnProcess> {
  return startKilnProcess(SESSIONS_FIXTURE, {
    MCP_SESSION_MODE: 'stateful',
    STORAGE_PROVIDER_TYPE: 'redis',
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: 'readiness-test',
    MCP_LOG_LEVEL: 'warning',
    ...env,
  });
}

async function probe(instance: KilnProcess, path: string) {
  const response = await fetch(`${instance.origin}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const envelopeCall = (instance: KilnProcess) =>
  post(instance.endpoint, envelopeRequest('tools/list'), envelopeHeaders('tools/list'));

describe('readiness on Redis', () => {
  it('is ready with storage, sessions and bus ok; not ready while Redis is down, alive throughout', async () => {
    const instance = await start();
    try {
      await vi.waitFor(async () => {
        expect(await probe(instance, '/readyz')).toEqual({
          status: 200,
          body: { status: 'ready', checks: { accepting: 'ok', storage: 'ok', sessions: 'ok', bus: 'ok' } },
        });
      }, WAIT);

      await redis.kill();
      await vi.waitFor(async () => {
        const ready = await probe(instance, '/readyz');
        expect(ready.status).toBe(503);
        expect(ready.body).toMatchObject({
          status: 'not-ready',
          checks: {
            accepting: 'ok',
            storage: expect.not.stringMatching(/^ok$/),
            sessions: expect.not.stringMatching(/^ok$/),
          },
        });
        // No host or port of the backend in what a probe shows.
        expect(JSON.stringify(ready.body)).not.toContain(String(redis.port));
      }, WAIT);
      expect(await probe(instance, '/healthz')).toMatchObject({ status: 200, body: { status: 'degraded' } });

      await redis.restart();
      await vi.waitFor(async () => expect((await probe(instance, '/readyz')).status).toBe(200), WAIT);
      expect(await probe(instance, '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    } finally {
      if (!redis.running) await redis.restart();
      await instance.kill();
    }
  });
});

describe('SIGTERM', () => {
  it('turns readiness 503 at once, serves through the ready grace, then exits 0', async () => {
    const instance = await start({ MCP_SHUTDOWN_READY_GRACE_MS: '2000' });
    await vi.waitFor(async () => expect((await probe(instance, '/readyz')).status).toBe(200), WAIT);
    const exited = instance.stop();
    await vi.waitFor(async () => expect((await probe(instance, '/readyz')).status).toBe(503), WAIT);
    expect(await probe(instance, '/healthz')).toMatchObject({ status: 503, body: { status: 'shutting-down' } });
    const served = await envelopeCall(instance);
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ result: { tools: expect.any(Array) } });
    expect(await exited).toEqual({ code: 0, signal: null });
  });

  it('exits at once with 1 on a second SIGTERM during the grace', async () => {
    const instance = await start({ MCP_SHUTDOWN_READY_GRACE_MS: '60000' });
    await vi.waitFor(async () => expect((await probe(instance, '/readyz')).status).toBe(200), WAIT);
    process.kill(instance.pid, 'SIGTERM');
    await vi.waitFor(async () => expect((await probe(instance, '/readyz')).status).toBe(503), WAIT);
    const startedAt = performance.now();
    expect(await instance.stop()).toEqual({ code: 1, signal: null });
    expect(performance.now() - startedAt).toBeLessThan(5_000);
  });
});
