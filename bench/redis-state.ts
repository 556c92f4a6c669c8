// ctx.state latency on Redis against in-memory: sequential get/set/take through `StorageService.forTenant`, as a
// handler calls them, with p50/p99 per operation (goal for Redis on loopback: p99 <= 1 ms). Uses BENCH_REDIS_URL
// when set, else throwaway loopback redis-servers; BENCH_STATE_OPS sets the measured calls per operation.
import { RedisStorageProvider } from 'mcp-kiln/redis';
import { type ContextState, InMemoryStorageProvider, type StorageProvider, StorageService } from 'mcp-kiln/storage';
import { type AppendFsync, startRedisServer } from '../test/support/redis-servers.js';

const GOAL_P99_MS = 1;
const OPS = Number(process.env.BENCH_STATE_OPS ?? 5_000);
const WARMUP_OPS = 500;
const KEY_SPACE = 1_000;
const VALUE = { title: 'Quarterly report', tags: ['finance', 'q3', 'draft'], owner: 'user-42', body: 'x'.repeat(120) };

interface Row {
  provider: string;
  op: string;
  p50: number;
  p99: number;
  max: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** Times `call(i)` OPS times, one call in flight, after an unrecorded warm-up; `prepare(i)` runs untimed first. */
async function measure(
  call: (i: number) => Promise<unknown>,
  prepare?: (i: number) => Promise<unknown>,
): Promise<Omit<Row, 'provider' | 'op'>> {
  for (let i = 0; i < WARMUP_OPS; i++) {
    await prepare?.(i);
    await call(i);
  }
  const samples: number[] = [];
  for (let i = 0; i < OPS; i++) {
    await prepare?.(i);
    const started = performance.now();
    await call(i);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), max: samples.at(-1) ?? 0 };
}

async function benchProvider(name: string, provider: StorageProvider): Promise<Row[]> {
  const service = new StorageService(provider);
  const state: ContextState = service.forTenant('bench-tenant');
  const key = (i: number) => `bench/item-${i % KEY_SPACE}`;
  const rows: Row[] = [];
  rows.push({ provider: name, op: 'set', ...(await measure((i) => state.set(key(i), VALUE))) });
  rows.push({ provider: name, op: 'get', ...(await measure((i) => state.get(key(i)))) });
  rows.push({
    provider: name,
    op: 'take',
    ...(await measure(
      (i) => state.take(key(i)),
      (i) => state.set(key(i), VALUE),
    )),
  });
  // Leave nothing behind on a Redis the bench was pointed at.
  await state.deleteMany(Array.from({ length: KEY_SPACE }, (_, i) => key(i)));
  await service.close();
  return rows;
}

function renderRows(rows: readonly Row[]): string {
  const header = ['provider', 'op', 'p50 ms', 'p99 ms', 'max ms', `p99 <= ${GOAL_P99_MS} ms`];
  const cells = rows.map((row) => [
    row.provider,
    row.op,
    row.p50.toFixed(3),
    row.p99.toFixed(3),
    row.max.toFixed(3),
    row.provider.startsWith('redis') ? (row.p99 <= GOAL_P99_MS ? 'yes' : 'NO') : '',
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (values: string[]) =>
    values.map((value, i) => (i < 2 ? value.padEnd(widths[i]!) : value.padStart(widths[i]!))).join('  ');
  return [line(header), ...cells.map(line)].join('\n');
}

async function benchRedis(name: string, url: string): Promise<Row[]> {
  return benchProvider(name, new RedisStorageProvider({ connection: { url, keyPrefix: `kiln-bench-${process.pid}` } }));
}

/** A throwaway loopback server per AOF policy: `everysec` shows Kiln plus Redis, `always` adds an fsync per write. */
async function benchLoopback(appendfsync: AppendFsync): Promise<Row[]> {
  const server = await startRedisServer({ appendfsync });
  try {
    return await benchRedis(`redis loopback, AOF ${appendfsync}`, server.url);
  } finally {
    await server.stop();
  }
}

const external = process.env.BENCH_REDIS_URL;
const rows = [
  ...(await benchProvider('in-memory', new InMemoryStorageProvider())),
  ...(external
    ? await benchRedis('redis (BENCH_REDIS_URL)', external)
    : [...(await benchLoopback('everysec')), ...(await benchLoopback('always'))]),
];
process.stdout.write(`\nctx.state latency, ${OPS} sequential calls per op, value ${JSON.stringify(VALUE).length} B\n`);
process.stdout.write(`${renderRows(rows)}\n`);
