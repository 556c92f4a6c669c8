// `npm run bench:otel`: what OpenTelemetry costs per tools/call, in process (direct calls through the full pipeline,
// notes_get_note with one ctx.state read). Three apps alternate over rounds: none with an SDK, one booted with a
// TracerProvider and MeterProvider registered (spans processed and dropped, metrics aggregated and never exported),
// and one without an SDK again, so the two no-SDK medians show the noise the comparison sits in.
// BENCH_OTEL_CALLS (20000) calls per round, BENCH_OTEL_ROUNDS (5).
import 'reflect-metadata';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { NotesModule } from '../examples/notes/notes.module.js';

const CALLS = Number(process.env.BENCH_OTEL_CALLS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_OTEL_ROUNDS ?? 5);

/** Spans are built, ended and handed over like any exporter's; then forgotten. */
const DROPPING_EXPORTER: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => undefined,
};

class IdleReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

async function bootNotes(): Promise<{ app: TestingApp; noteId: string }> {
  const app = await createTestingModule({ imports: [NotesModule] }).compile({ env: { MCP_LOG_LEVEL: 'error' } });
  const created = await app.callTool('notes_create_note', { title: 'Bench', body: 'body', tags: ['t'] });
  return { app, noteId: (created.structuredContent as { id: string }).id };
}

function registerSdk(): () => Promise<void> {
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(DROPPING_EXPORTER)] });
  const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return async () => {
    trace.disable();
    metrics.disable();
    propagation.disable();
    context.disable();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
  };
}

/** Microseconds per call over CALLS sequential calls. */
async function round({ app, noteId }: { app: TestingApp; noteId: string }): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) {
    const result = await app.callTool('notes_get_note', { id: noteId });
    if (result.isError) throw new Error(`notes_get_note failed: ${JSON.stringify(result.structuredContent)}`);
  }
  return Number(process.hrtime.bigint() - started) / 1000 / CALLS;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

// Each app reads the global providers once, at boot: registered for the middle one only.
const withoutSdk = await bootNotes();
const unregister = registerSdk();
const withSdk = await bootNotes();
await unregister();
const withoutSdkAgain = await bootNotes();
// Calls on the SDK app still need the SDK's context manager and providers; they were read into the app at boot, and
// the context manager is registered again for its rounds.
const apps = [
  { label: 'no SDK', boot: withoutSdk, times: [] as number[] },
  { label: 'SDK registered (traces + metrics)', boot: withSdk, times: [] as number[], sdk: true },
  { label: 'no SDK (again)', boot: withoutSdkAgain, times: [] as number[] },
];
for (const entry of apps) await round(entry.boot); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  for (const entry of r % 2 === 0 ? apps : [...apps].reverse()) {
    if (entry.sdk) context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    entry.times.push(await round(entry.boot));
    if (entry.sdk) context.disable();
  }
}
const baseline = median(apps[0]?.times ?? []);
process.stdout.write(`tools/call notes_get_note, direct, ${CALLS} calls x ${ROUNDS} rounds (median µs/call)\n`);
for (const entry of apps) {
  const us = median(entry.times);
  const delta = ((us / baseline - 1) * 100).toFixed(1);
  process.stdout.write(`  ${entry.label.padEnd(36)} ${us.toFixed(2).padStart(8)} µs  (${delta}% vs no SDK)\n`);
}
for (const entry of apps) await entry.boot.app.close();
