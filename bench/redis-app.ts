// The Redis lane at app level: a tools/call whose handler does a ctx.state get + set, on Redis against in-memory
// (sequential p50/p99 and throughput at 16 calls in flight, through the full pipeline), and what rebuilding a 2025
// session on an instance that never saw it costs (first request there against the next one). Loopback Redis.

import { type Context, Module, Tool } from 'mcp-kiln';
import { http } from 'mcp-kiln/http';
import { startRedisSessionHosting } from 'mcp-kiln/redis';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { z } from 'zod';
import { startRedisServer } from '../test/support/redis-servers.js';

const CALLS = Number(process.env.BENCH_APP_CALLS ?? 3_000);
const CONCURRENCY = 16;
const SESSIONS = Number(process.env.BENCH_REHYDRATIONS ?? 30);

@Tool('bump_counter', {
  description: 'Reads a counter from ctx.state and writes it back incremented, as a stateful tool would.',
  input: z.object({ key: z.string().describe('The counter to bump.') }),
  output: z.object({ value: z.number().describe('The counter after the bump.') }),
})
class BumpCounter {
  async handle(input: { key: string }, ctx: Context) {
    const value = ((await ctx.state.get<number>(input.key)) ?? 0) + 1;
    await ctx.state.set(input.key, value);
    return { value };
  }
}

@Module({ tools: [BumpCounter] })
class CounterModule {}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const ms = (n: number) => n.toFixed(3);

async function callLane(label: string, app: TestingApp) {
  for (let i = 0; i < 300; i++) await app.callTool('bump_counter', { key: `warm/${i % 50}` });
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await app.callTool('bump_counter', { key: `seq/${i % 200}` });
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CALLS) await app.callTool('bump_counter', { key: `par/${next++ % 200}` });
    }),
  );
  const perSecond = CALLS / ((performance.now() - started) / 1000);
  return { label, p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), perSecond };
}

async function post(endpoint: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  await response.text();
  return response;
}

/** Opens sessions on host A, then times the first request for each on host B (a rebuild) and the one after it. */
async function rehydrationLane(redisUrl: string) {
  const env = { MCP_SESSION_MODE: 'stateful', MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_LOG_LEVEL: 'error' };
  const hosts = await Promise.all(
    [0, 1].map(async () => {
      const app = await createTestingModule({ imports: [CounterModule] }).compile({ env });
      const sessions = await startRedisSessionHosting({
        connection: { url: redisUrl, keyPrefix: 'bench-rehydrate' },
        staleSessionTimeoutMs: 600_000,
      });
      const serving = await app.app.serve(http({ registry: sessions.registry, peers: sessions.peers }));
      return { app, sessions, serving };
    }),
  );
  const [a, b] = hosts as [(typeof hosts)[0], (typeof hosts)[0]];
  const first: number[] = [];
  const warm: number[] = [];
  const version = '2025-11-25';
  for (let i = 0; i < SESSIONS; i++) {
    const opened = await post(a.serving.endpointUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
    });
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': version };
    await post(a.serving.endpointUrl, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    let started = performance.now();
    await post(b.serving.endpointUrl, list, headers);
    first.push(performance.now() - started);
    started = performance.now();
    await post(b.serving.endpointUrl, { ...list, id: 3 }, headers);
    warm.push(performance.now() - started);
  }
  for (const host of hosts) {
    await host.serving.close();
    await host.sessions.close();
    await host.app.close();
  }
  first.sort((x, y) => x - y);
  warm.sort((x, y) => x - y);
  return { first: percentile(first, 0.5), warm: percentile(warm, 0.5), firstP99: percentile(first, 0.99) };
}

async function main(): Promise<void> {
  const redis = await startRedisServer({ appendfsync: 'everysec' });
  try {
    const memory = await createTestingModule({ imports: [CounterModule] }).compile();
    const onRedis = await createTestingModule({ imports: [CounterModule] }).compile({
      env: { STORAGE_PROVIDER_TYPE: 'redis', REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'bench-app' },
    });
    const rows = [await callLane('in-memory', memory), await callLane('redis', onRedis)];
    await memory.close();
    await onRedis.close();
    console.log(`\ntools/call with a ctx.state get + set (${CALLS} calls; ${CONCURRENCY} in flight for calls/s)\n`);
    console.log('| storage | p50 ms | p99 ms | calls/s |\n| --- | --: | --: | --: |');
    for (const row of rows)
      console.log(`| ${row.label} | ${ms(row.p50)} | ${ms(row.p99)} | ${Math.round(row.perSecond)} |`);
    const [inMemory, redisRow] = rows as [(typeof rows)[0], (typeof rows)[0]];
    console.log(`\nRedis / in-memory throughput: ${(redisRow.perSecond / inMemory.perSecond).toFixed(2)}x`);
    const rebuild = await rehydrationLane(redis.url);
    console.log(`\n2025 session rebuilt on another instance (${SESSIONS} sessions, tools/list over HTTP)\n`);
    console.log('| request on the other instance | p50 ms |\n| --- | --: |');
    console.log(`| first (rebuilds the session) | ${ms(rebuild.first)} |`);
    console.log(`| next (session already here) | ${ms(rebuild.warm)} |`);
    console.log(
      `\nRebuild cost per session ≈ ${ms(rebuild.first - rebuild.warm)} ms (first-request p99 ${ms(rebuild.firstP99)} ms)`,
    );
  } finally {
    await redis.stop();
  }
}

await main();
