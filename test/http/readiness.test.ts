// Liveness and readiness over real HTTP, in one process on in-memory storage: /readyz names each check; once the app
// begins to close, /readyz and /healthz answer 503 at once while MCP requests are still served through the ready
// grace (MCP_SHUTDOWN_READY_GRACE_MS), and the listener closes after it. The report is cached, so a flood of probes
// costs one round of checks per cacheMs, and a check that hangs counts as failed after its deadline.
import { describe, expect, it } from 'vitest';
import { Readiness } from '../../modules/http/operations/readiness.js';
import { envelopeHeaders, envelopeRequest, post, type RunningServer, startHttpServer } from './helpers/http-server.js';

async function probe(origin: string, path: string) {
  const response = await fetch(`${origin}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const callWhoAmI = (endpoint: string) =>
  post(endpoint, envelopeRequest('tools/call', { name: 'probe_whoami', arguments: {} }), {
    ...envelopeHeaders('tools/call'),
    'mcp-name': 'probe_whoami',
  });

describe('GET /readyz', () => {
  it('answers 200 with every check ok while the instance can work', async () => {
    const server = await startHttpServer();
    try {
      const origin = new URL(server.serving.url).origin;
      expect(await probe(origin, '/readyz')).toEqual({
        status: 200,
        body: { status: 'ready', checks: { accepting: 'ok', storage: 'ok', sessions: 'ok' } },
      });
    } finally {
      await server.close();
    }
  });

  it('turns 503 the moment the app begins to close, while MCP requests are served through the ready grace', async () => {
    const server: RunningServer = await startHttpServer({ MCP_SHUTDOWN_READY_GRACE_MS: '1500' });
    const origin = new URL(server.serving.url).origin;
    const closing = server.app.close('test');

    const ready = await probe(origin, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      status: 'not-ready',
      checks: { accepting: expect.stringMatching(/shutting down/) },
    });
    const live = await probe(origin, '/healthz');
    expect(live).toMatchObject({ status: 503, body: { status: 'shutting-down' } });
    const served = await callWhoAmI(server.endpoint);
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ result: { structuredContent: { era: 'envelope' } } });

    await closing;
    await expect(fetch(`${origin}/readyz`)).rejects.toThrow();
  });
});

describe('the readiness report', () => {
  it('runs its checks once per cacheMs however many probes come, but asks the gate every time', async () => {
    let clock = 0;
    let runs = 0;
    let draining = false;
    const readiness = new Readiness(
      {
        name: 'accepting',
        run: () => {
          if (draining) throw new Error('shutting down');
        },
      },
      [{ name: 'storage', run: async () => void runs++ }],
      { cacheMs: 1000, now: () => clock },
    );
    for (let i = 0; i < 50; i++) expect((await readiness.report()).ready).toBe(true);
    expect(runs).toBe(1);
    draining = true;
    expect(await readiness.report()).toEqual({
      ready: false,
      checks: { accepting: 'shutting down', storage: 'ok' },
    });
    clock = 1000;
    await readiness.report();
    expect(runs).toBe(2);
  });

  it('counts a check that does not answer within its deadline as failed', async () => {
    const readiness = new Readiness(
      { name: 'accepting', run: () => undefined },
      [
        { name: 'storage', run: () => new Promise<void>(() => undefined) },
        {
          name: 'bus',
          run: () => {
            throw new Error('not subscribed to the change-event bus');
          },
        },
      ],
      { timeoutMs: 20 },
    );
    expect(await readiness.report()).toEqual({
      ready: false,
      checks: { accepting: 'ok', storage: 'no answer within 20 ms', bus: 'not subscribed to the change-event bus' },
    });
  });
});
