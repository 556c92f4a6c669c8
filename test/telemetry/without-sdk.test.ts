// Without an OpenTelemetry SDK the app records nothing and pays for nothing: the runtime holds no telemetry, so
// operations, storage and hosts take their untraced paths. The check is made once, at boot: an SDK registered after
// the app was created is not used by it.
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtelSdk, registerOtelSdk } from './otel-sdk.js';
import { TelemetryFixtureModule } from './telemetry-fixture.module.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

let app: TestingApp;
let lateSdk: OtelSdk | undefined;
beforeAll(async () => {
  app = await createTestingModule({ imports: [TelemetryFixtureModule] }).compile();
});
afterAll(async () => {
  await app?.close();
  await lateSdk?.shutdown();
});

describe('without an OpenTelemetry SDK', () => {
  it('keeps no telemetry on the runtime', () => {
    expect(app.app.runtime.telemetry).toBeUndefined();
  });

  it('leaves ctx.traceId and ctx.spanId unset, even when the client sends a traceparent', async () => {
    const client = await app.connectClient({ era: 'envelope' });
    const result = await client.callTool({ name: 'probe_trace', arguments: {}, _meta: { traceparent: TRACEPARENT } });
    expect(result.structuredContent).toEqual({ traceId: null, spanId: null });
  });

  it('runs a host request as it is', () => {
    expect(app.app.telemetry.inRequestContext({ traceparent: TRACEPARENT }, () => 'ran')).toBe('ran');
    expect(app.app.telemetry.observe('sessions', () => 1)).toBeTypeOf('function');
  });

  it('does not start using an SDK registered after boot', async () => {
    lateSdk = registerOtelSdk();
    const result = await app.callTool('probe_trace', {});
    expect(result.structuredContent).toEqual({ traceId: null, spanId: null });
    expect(lateSdk.spans()).toEqual([]);
  });
});
