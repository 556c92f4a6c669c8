// Latency of the Redis pieces behind multi-instance HTTP: storing one SSE frame (storeEvent, as the SDK awaits it
// before every frame), replaying 1,000 frames to a resuming client, and a change event from one bus instance to
// another's listeners. Uses BENCH_REDIS_URL when set, else throwaway loopback redis-servers (AOF everysec and always).
// Run: npm run build && node dist/bench/redis-events.js
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, ServerEvent } from '@modelcontextprotocol/server';
import {
  createRedisConnection,
  type RedisConnection,
  RedisServerEventBus,
  RedisSessionEventStore,
} from 'mcp-kiln/redis';
import { type AppendFsync, startRedisServer } from '../test/support/redis-servers.js';

const STORE_OPS = Number(process.env.BENCH_EVENT_OPS ?? 5_000);
const REPLAY_FRAMES = 1_000;
const REPLAY_RUNS = 30;
const BUS_OPS = Number(process.env.BENCH_BUS_OPS ?? 2_000);
const WARMUP = 200;
const RETENTION = { maxEvents: 10_000, ttlMs: 5 * 60_000 };
/** About the size of a small tool result. */
const FRAME: JSONRPCMessage = {
  jsonrpc: '2.0',
  id: 7,
  result: { content: [{ type: 'text', text: 'x'.repeat(240) }], structuredContent: { ok: true, count: 3 } },
};

interface Row {
  target: string;
  measure: string;
  p50: number;
  p99: number;
  max: number;
}

function summary(samples: number[]): Omit<Row, 'target' | 'measure'> {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

async function timed(runs: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(WARMUP, runs); i++) await call(i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

function openStore(connection: RedisConnection): RedisSessionEventStore {
  return new RedisSessionEventStore({ connection, sessionId: randomUUID(), retention: RETENTION });
}

async function benchStore(target: string, connection: RedisConnection): Promise<Row[]> {
  const store = openStore(connection);
  const stores = await timed(STORE_OPS, () => store.storeEvent('post-1', FRAME));
  await store.clear();

  const replaying = openStore(connection);
  const from = await replaying.storeEvent('_GET_stream', FRAME);
  for (let i = 0; i < REPLAY_FRAMES; i++) await replaying.storeEvent('_GET_stream', FRAME);
  let sent = 0;
  const replays = await timed(REPLAY_RUNS, async () => {
    sent = 0;
    await replaying.replayEventsAfter(from, {
      send: async () => {
        sent++;
      },
    });
  });
  if (sent !== REPLAY_FRAMES) throw new Error(`Replay sent ${sent} frames, expected ${REPLAY_FRAMES}`);
  await replaying.clear();
  return [
    { target, measure: `storeEvent (${STORE_OPS} sequential)`, ...summary(stores) },
    { target, measure: `replay ${REPLAY_FRAMES} frames (${REPLAY_RUNS} runs)`, ...summary(replays) },
  ];
}

/** One event in flight at a time: publish on A, resolve when B's listener has it. */
async function benchBus(target: string, url: string, keyPrefix: string): Promise<Row> {
  const a = new RedisServerEventBus({ connection: { url, keyPrefix } });
  const b = new RedisServerEventBus({ connection: { url, keyPrefix } });
  let arrived: (() => void) | undefined;
  b.subscribe(() => arrived?.());
  const deliver = (i: number) =>
    new Promise<void>((resolve) => {
      arrived = resolve;
      const event: ServerEvent = { kind: 'resource_updated', uri: `bench://item/${i}` };
      a.publish(event);
    });
  // B's subscription is asynchronous; the first delivery proves it is in place.
  await Promise.race([deliver(-1), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  try {
    return {
      target,
      measure: `bus publish -> deliver (${BUS_OPS} sequential)`,
      ...summary(await timed(BUS_OPS, deliver)),
    };
  } finally {
    await a.close();
    await b.close();
  }
}

async function benchRedis(target: string, url: string): Promise<Row[]> {
  const keyPrefix = `kiln-bench-${process.pid}`;
  const connection = createRedisConnection({ url, keyPrefix });
  try {
    return [...(await benchStore(target, connection)), await benchBus(target, url, keyPrefix)];
  } finally {
    await connection.close();
  }
}

async function benchLoopback(appendfsync: AppendFsync): Promise<Row[]> {
  const server = await startRedisServer({ appendfsync });
  try {
    return await benchRedis(`loopback, AOF ${appendfsync}`, server.url);
  } finally {
    await server.stop();
  }
}

function render(rows: readonly Row[]): string {
  const header = ['redis', 'measure', 'p50 ms', 'p99 ms', 'max ms'];
  const cells = rows.map((row) => [
    row.target,
    row.measure,
    row.p50.toFixed(3),
    row.p99.toFixed(3),
    row.max.toFixed(3),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (values: string[]) =>
    values.map((value, i) => (i < 2 ? value.padEnd(widths[i]!) : value.padStart(widths[i]!))).join('  ');
  return [line(header), ...cells.map(line)].join('\n');
}

const external = process.env.BENCH_REDIS_URL;
const rows = external
  ? await benchRedis('BENCH_REDIS_URL', external)
  : [...(await benchLoopback('everysec')), ...(await benchLoopback('always'))];
process.stdout.write(`\nSSE event store and change-event bus on Redis, frame ${JSON.stringify(FRAME).length} B\n`);
process.stdout.write(`${render(rows)}\n`);
