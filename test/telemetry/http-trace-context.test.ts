// Trace context over real HTTP with the official SDK client: a W3C traceparent header continues the caller's trace on
// the fast path, the SDK's 2026-07-28 path and a 2025 session; `_meta.traceparent` wins over the header, which the
// span then links to. The host reports its live sessions and listen streams as gauges.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectClient, type Era, type RunningServer, startHttpServer } from '../http/helpers/http-server.js';
import { counterSum, type OtelSdk, registerOtelSdk } from './otel-sdk.js';
import { TelemetryFixtureModule } from './telemetry-fixture.module.js';

const HEADER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const HEADER_SPAN = 'b7ad6b7169203331';
const META_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const META_SPAN = '00f067aa0ba902b7';

let sdk: OtelSdk;
let fastPath: RunningServer;
let sdkPath: RunningServer;
beforeAll(async () => {
  sdk = registerOtelSdk();
  fastPath = await startHttpServer({}, {}, TelemetryFixtureModule);
  sdkPath = await startHttpServer({ MCP_HTTP_FAST_PATH: 'off' }, {}, TelemetryFixtureModule);
});
afterAll(async () => {
  await fastPath?.close();
  await sdkPath?.close();
  await sdk?.shutdown();
});

/** Every request the client transport makes carries the caller's traceparent header. */
const tracedFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('traceparent', `00-${HEADER_TRACE}-${HEADER_SPAN}-01`);
  return fetch(input, { ...init, headers });
};

async function probeOver(server: RunningServer, era: Era, meta?: Record<string, string>) {
  sdk.reset();
  const { client } = await connectClient(server.endpoint, era, { fetch: tracedFetch });
  try {
    const result = await client.callTool({ name: 'probe_trace', arguments: {}, ...(meta ? { _meta: meta } : {}) });
    return { result: result.structuredContent as { traceId: string }, span: sdk.span('tools/call probe_trace') };
  } finally {
    await client.close();
  }
}

describe('the traceparent header', () => {
  it.each([
    ['the fast path', () => fastPath, 'envelope'],
    ["the SDK's 2026-07-28 path", () => sdkPath, 'envelope'],
    ['a 2025 session', () => fastPath, 'handshake'],
  ] as const)('continues the caller’s trace on %s', async (_label, server, era) => {
    const { result, span } = await probeOver(server(), era);
    expect(span.spanContext().traceId).toBe(HEADER_TRACE);
    expect(span.parentSpanContext?.spanId).toBe(HEADER_SPAN);
    expect(result.traceId).toBe(HEADER_TRACE);
  });

  it('gives way to _meta.traceparent, and the span links to the header’s context', async () => {
    const { span } = await probeOver(fastPath, 'envelope', { traceparent: `00-${META_TRACE}-${META_SPAN}-01` });
    expect(span.spanContext().traceId).toBe(META_TRACE);
    expect(span.parentSpanContext?.spanId).toBe(META_SPAN);
    expect(span.links.map((link) => link.context.spanId)).toEqual([HEADER_SPAN]);
  });
});

describe('host gauges', () => {
  const gauge = async (name: string) => counterSum((await sdk.collect()).get(name), {});

  it('reports live 2025 sessions', async () => {
    const { client } = await connectClient(sdkPath.endpoint, 'handshake');
    expect(await gauge('kiln.http.sessions.active')).toBe(1);
    await client.close();
  });

  it('reports open subscriptions/listen streams', async () => {
    const { client } = await connectClient(sdkPath.endpoint, 'envelope');
    const subscription = await client.listen({ toolsListChanged: true });
    expect(await gauge('kiln.http.listen_streams.active')).toBe(1);
    await subscription.close();
    await vi.waitFor(async () => expect(await gauge('kiln.http.listen_streams.active')).toBe(0));
    await client.close();
  });
});
