// What call policies cost per call, in memory and on Redis (loopback, through the full pipeline by direct calls): a
// plain tool, the same tool under a @RateLimit and under a @Quota (limits never reached), and a @Cache hit, next to
// the handler it skips (a tool doing about a millisecond of hashing) and to the plain tool plus one extra Redis round
// trip (a ctx.state.get). Lanes run interleaved in rounds, so warm-up and machine noise fall on all of them alike.

import { createHash } from 'node:crypto';
import { Cache, type Context, Module, Quota, RateLimit, Tool } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { z } from 'zod';
import { startRedisServer } from '../test/support/redis-servers.js';

const CALLS = Number(process.env.BENCH_POLICY_CALLS ?? 3_000);
const Input = z.object({ text: z.string().describe('Text to digest') });

/** About a millisecond of CPU: the kind of work a cache is for. */
function digest(text: string): string {
  let value = text;
  for (let round = 0; round < 2_000; round++) value = createHash('sha256').update(value).digest('hex');
  return value;
}

@Tool('plain', { description: 'A digest, with no policy.', input: Input, annotations: { readOnlyHint: true } })
class Plain {
  handle(input: { text: string }) {
    return input.text;
  }
}

@RateLimit({ limit: 1_000_000_000, windowMs: 60_000, by: 'tenant' })
@Tool('rate_limited', { description: 'Plain, under a rate limit.', input: Input, annotations: { readOnlyHint: true } })
class RateLimited {
  handle(input: { text: string }) {
    return input.text;
  }
}

@Quota({ limit: 1_000_000_000, period: 'day', by: 'tenant' })
@Tool('quota', { description: 'Plain, under a quota.', input: Input, annotations: { readOnlyHint: true } })
class Quotaed {
  handle(input: { text: string }) {
    return input.text;
  }
}

@Tool('one_get', { description: 'Plain, plus one ctx.state.get.', input: Input, annotations: { readOnlyHint: true } })
class OneGet {
  async handle(input: { text: string }, ctx: Context) {
    await ctx.state.get('bench');
    return input.text;
  }
}

@Tool('digest', { description: 'The work a cache skips.', input: Input, annotations: { readOnlyHint: true } })
class Digest {
  handle(input: { text: string }) {
    return digest(input.text);
  }
}

@Cache({ ttlMs: 3_600_000 })
@Tool('cached_digest', { description: 'The same work, cached.', input: Input, annotations: { readOnlyHint: true } })
class CachedDigest {
  handle(input: { text: string }) {
    return digest(input.text);
  }
}

@Module({ tools: [Plain, RateLimited, Quotaed, OneGet, Digest, CachedDigest] })
class PolicyModule {}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const ms = (n: number) => n.toFixed(3);

const LANES = [
  ['plain tool', 'plain'],
  ['@RateLimit', 'rate_limited'],
  ['@Quota', 'quota'],
  ['plain + one ctx.state.get (one extra storage round trip)', 'one_get'],
  ['handler a cache skips (~1 ms of hashing)', 'digest'],
  ['@Cache hit of that handler', 'cached_digest'],
] as const;
const ROUNDS = 10;

async function report(label: string, app: TestingApp) {
  const args = { text: 'the same arguments every time' };
  const samples = new Map<string, number[]>(LANES.map(([, tool]) => [tool, []]));
  for (const [, tool] of LANES) for (let i = 0; i < 200; i++) await app.callTool(tool, args, { tenantId: 'bench' });
  for (let round = 0; round < ROUNDS; round++) {
    for (const [, tool] of LANES) {
      const lane = samples.get(tool) as number[];
      // The slow handler gets fewer calls: its figure is steady long before.
      const calls = tool === 'digest' ? Math.ceil(CALLS / ROUNDS / 5) : Math.ceil(CALLS / ROUNDS);
      for (let i = 0; i < calls; i++) {
        const started = performance.now();
        await app.callTool(tool, args, { tenantId: 'bench' });
        lane.push(performance.now() - started);
      }
    }
  }
  const p50 = (tool: string) =>
    percentile(
      [...(samples.get(tool) as number[])].sort((a, b) => a - b),
      0.5,
    );
  const p99 = (tool: string) =>
    percentile(
      [...(samples.get(tool) as number[])].sort((a, b) => a - b),
      0.99,
    );
  const plain = p50('plain');
  console.log(`\n${label} (${CALLS} sequential direct calls per lane, ${ROUNDS} interleaved rounds)\n`);
  console.log('| call | p50 ms | p99 ms | p50 over plain ms |\n| --- | --: | --: | --: |');
  for (const [name, tool] of LANES) {
    console.log(`| ${name} | ${ms(p50(tool))} | ${ms(p99(tool))} | ${ms(p50(tool) - plain)} |`);
  }
}

async function main(): Promise<void> {
  const memory = await createTestingModule({ imports: [PolicyModule] }).compile();
  await report('In memory', memory);
  await memory.close();
  const redis = await startRedisServer({ appendfsync: 'everysec' });
  try {
    const onRedis = await createTestingModule({ imports: [PolicyModule] }).compile({
      env: { STORAGE_PROVIDER_TYPE: 'redis', REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'bench-policies' },
    });
    await report('Redis (loopback)', onRedis);
    await onRedis.close();
  } finally {
    await redis.stop();
  }
}

await main();
