// Usage accounting (MCP_USAGE_ACCOUNTING=on) through the official SDK client on both protocol versions: calls,
// errors and time per tenant, definition and UTC day, read through the USAGE token before and after the flush to the
// storage backend, a new day counted apart (the app clock moves), kiln.usage.* metrics with OpenTelemetry on, and a
// clear error while accounting is off.
import { type Context, Errors, Inject, Injectable, Module, Tool, USAGE, type UsageLedger } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeBootedApps } from '../di/boot-app.js';
import { manualClock } from '../storage/storage-test-helpers.js';
import { counterSum, registerOtelSdk } from '../telemetry/otel-sdk.js';

@Errors([
  { reason: 'empty_text', code: -32602, when: 'The text is empty', recovery: 'Send a text with at least one word.' },
] as const)
@Tool('translate', {
  description: 'Translates a text; fails on an empty one.',
  input: z.object({ text: z.string().describe('The text') }),
})
class Translate {
  handle(input: { text: string }, ctx: Context): string {
    if (input.text === '') {
      throw (ctx as unknown as { fail: (reason: string, message: string) => Error }).fail('empty_text', 'Empty.');
    }
    return input.text.toUpperCase();
  }
}

/** A tool reporting its tenant's usage, as an app would offer it. */
@Injectable()
@Tool('my_usage', { description: 'How much this tenant used today.', input: z.object({}) })
class MyUsage {
  constructor(@Inject(USAGE) private readonly usage: UsageLedger) {}
  async handle(_input: unknown, ctx: { tenantId: string | undefined }) {
    return JSON.stringify(await this.usage.daily(ctx.tenantId));
  }
}

@Module({ tools: [Translate, MyUsage] })
class TranslateModule {}

const apps: TestingApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await closeBootedApps();
});

async function compiled(env: Record<string, string> = { MCP_USAGE_ACCOUNTING: 'on' }) {
  const clock = manualClock(Date.UTC(2026, 11, 5, 23, 0, 0));
  const testing = await createTestingModule({ imports: [TranslateModule] }).compile({ clock: clock.now, env });
  apps.push(testing);
  return { testing, clock, usage: testing.get<UsageLedger>(USAGE) };
}

describe.each(['handshake', 'envelope'] as const)('usage accounting (%s era)', (era) => {
  it('counts calls, errors and time per tenant and definition, before and after the flush', async () => {
    const { testing, usage } = await compiled();
    const acme = await testing.connectClient({ era, auth: { clientId: 'app', subject: 'ada', tenantId: 'acme' } });
    const globex = await testing.connectClient({ era, auth: { clientId: 'app', subject: 'eve', tenantId: 'globex' } });
    await acme.callTool({ name: 'translate', arguments: { text: 'hei' } });
    await acme.callTool({ name: 'translate', arguments: { text: 'hallo' } });
    await acme.callTool({ name: 'translate', arguments: { text: '' } });
    await globex.callTool({ name: 'translate', arguments: { text: 'ciao' } });
    const before = await usage.daily('acme');
    expect(before).toEqual([
      { method: 'tools/call', name: 'translate', calls: 3, errors: 1, durationMs: expect.any(Number) },
    ]);
    expect(before[0]?.durationMs).toBeGreaterThan(0);
    await usage.flush();
    expect(await usage.daily('acme')).toEqual(before);
    expect(await usage.daily('globex')).toMatchObject([{ name: 'translate', calls: 1, errors: 0 }]);
    // A tool reading its own tenant's usage through the token.
    const mine = await acme.callTool({ name: 'my_usage', arguments: {} });
    expect(JSON.parse((mine.content as { text: string }[])[0]?.text ?? '[]')).toMatchObject([
      { name: 'translate', calls: 3 },
    ]);
  });
});

describe('usage accounting by day and as metrics', () => {
  it('counts each UTC day apart', async () => {
    const { testing, usage, clock } = await compiled();
    await testing.callTool('translate', { text: 'one' }, { tenantId: 'acme' });
    await usage.flush();
    clock.advanceMs(2 * 3_600_000);
    await testing.callTool('translate', { text: 'two' }, { tenantId: 'acme' });
    await testing.callTool('translate', { text: 'three' }, { tenantId: 'acme' });
    expect(await usage.daily('acme', '2026-12-05')).toMatchObject([{ calls: 1 }]);
    expect(await usage.daily('acme')).toMatchObject([{ calls: 2 }]);
    await expect(usage.daily('acme', '5 December')).rejects.toMatchObject({ data: { reason: 'invalid_day' } });
  });

  it('records kiln.usage.calls, errors and duration when OpenTelemetry is on', async () => {
    const sdk = registerOtelSdk({ tracing: false });
    try {
      const { testing } = await compiled();
      await testing.callTool('translate', { text: 'a' }, { tenantId: 'acme' });
      await testing.callTool('translate', { text: '' }, { tenantId: 'acme' });
      const metrics = await sdk.collect();
      const labels = { 'kiln.tenant.id': 'acme', 'kiln.definition.name': 'translate', 'mcp.method.name': 'tools/call' };
      expect(counterSum(metrics.get('kiln.usage.calls'), labels)).toBe(2);
      expect(counterSum(metrics.get('kiln.usage.errors'), labels)).toBe(1);
      expect(counterSum(metrics.get('kiln.usage.duration'), labels)).toBeGreaterThan(0);
    } finally {
      await sdk.shutdown();
    }
  });

  it('says how to turn it on while it is off', async () => {
    const { testing, usage } = await compiled({});
    await testing.callTool('translate', { text: 'a' }, { tenantId: 'acme' });
    await expect(usage.daily('acme')).rejects.toMatchObject({
      data: { reason: 'usage_accounting_off' },
      message: expect.stringContaining('MCP_USAGE_ACCOUNTING=on'),
    });
  });
});
