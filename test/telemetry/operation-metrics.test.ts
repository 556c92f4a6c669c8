// Metrics with an OpenTelemetry MeterProvider registered (and no TracerProvider, so metrics stand on their own):
// mcp.server.operation.duration by method, target and error type, payload sizes, the input pipeline's counters and
// storage latency.
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryStorageProvider, StorageService } from '../../src/storage/index.js';
import { traceStorageProvider } from '../../src/storage/traced-storage-provider.js';
import { activeTelemetry, resolveTelemetry } from '../../src/telemetry/kiln-telemetry.js';
import { counterSum, histogramCount, type OtelSdk, pointsWith, registerOtelSdk } from './otel-sdk.js';
import { TelemetryFixtureModule } from './telemetry-fixture.module.js';

let sdk: OtelSdk;
let app: TestingApp;
beforeAll(async () => {
  sdk = registerOtelSdk({ tracing: false });
  app = await createTestingModule({ imports: [TelemetryFixtureModule] }).compile();
});
afterAll(async () => {
  await app?.close();
  await sdk?.shutdown();
});

describe('operation metrics', () => {
  it('records mcp.server.operation.duration in seconds per method and tool, with error.type on failures', async () => {
    await app.callTool('probe_trace', {});
    await app.callTool('probe_trace', {});
    await app.callTool('notes_get_note', { id: 'missing' });
    const metrics = await sdk.collect();
    const duration = metrics.get('mcp.server.operation.duration');
    expect(duration?.descriptor.unit).toBe('s');
    const ok = { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'probe_trace' };
    expect(histogramCount(duration, ok)).toBe(2);
    expect(pointsWith(duration, ok)[0]?.attributes['error.type']).toBeUndefined();
    expect(histogramCount(duration, { 'gen_ai.tool.name': 'notes_get_note', 'error.type': 'tool_error' })).toBe(1);
  });

  it('keeps unknown names out of metric attributes and records their JSON-RPC code', async () => {
    await expect(app.readResource('nothing://here')).rejects.toMatchObject({ data: { reason: 'unknown_resource' } });
    const duration = (await sdk.collect()).get('mcp.server.operation.duration');
    const points = pointsWith(duration, { 'mcp.method.name': 'resources/read', 'error.type': '-32602' });
    expect(points).toHaveLength(1);
    expect(points[0]?.attributes['kiln.resource.name']).toBeUndefined();
    expect(points[0]?.attributes['rpc.response.status_code']).toBe('-32602');
  });

  it('records request and response sizes in bytes', async () => {
    await app.callTool('probe_trace', { note_text: 'x'.repeat(1000) });
    const metrics = await sdk.collect();
    const request = pointsWith<{ max?: number }>(metrics.get('kiln.operation.request.size'), {
      'gen_ai.tool.name': 'probe_trace',
    });
    expect(metrics.get('kiln.operation.request.size')?.descriptor.unit).toBe('By');
    expect(Math.max(...request.map((point) => point.value.max ?? 0))).toBeGreaterThan(1000);
    expect(histogramCount(metrics.get('kiln.operation.response.size'), { 'gen_ai.tool.name': 'probe_trace' })).toBe(
      histogramCount(metrics.get('mcp.server.operation.duration'), {
        'gen_ai.tool.name': 'probe_trace',
      }),
    );
  });

  it('counts dropped keys, aliases and repairs by tool', async () => {
    await app.callTool('probe_trace', { noteText: 42, _call_id: 'a', _trace: 'b' });
    const metrics = await sdk.collect();
    const tool = { 'gen_ai.tool.name': 'probe_trace' };
    expect(counterSum(metrics.get('kiln.input.dropped_keys'), tool)).toBe(2);
    expect(counterSum(metrics.get('kiln.input.aliased_keys'), tool)).toBe(1);
    expect(counterSum(metrics.get('kiln.input.repairs'), tool)).toBe(1);
  });

  it('records storage latency per provider call', async () => {
    const before = histogramCount((await sdk.collect()).get('kiln.storage.operation.duration'), {
      'db.operation.name': 'set',
    });
    await app.callTool('probe_trace', {});
    const storage = (await sdk.collect()).get('kiln.storage.operation.duration');
    expect(histogramCount(storage, { 'db.operation.name': 'set' })).toBe(before + 1);
    expect(histogramCount(storage, { 'db.operation.name': 'get' })).toBeGreaterThan(0);
  });

  it('records a failed storage call with its reason as error.type', async () => {
    const provider = new InMemoryStorageProvider();
    await provider.close();
    const telemetry = activeTelemetry(await resolveTelemetry());
    if (!telemetry) throw new Error('The MeterProvider registered above was not found.');
    const storage = new StorageService(traceStorageProvider(provider, telemetry));
    await expect(storage.forTenant('t').get('k')).rejects.toMatchObject({ data: { reason: 'storage_closed' } });
    const duration = (await sdk.collect()).get('kiln.storage.operation.duration');
    expect(histogramCount(duration, { 'db.operation.name': 'get', 'error.type': 'storage_closed' })).toBe(1);
  });
});
