// createContext: the per-request Context built from the era bridge's seed — identity fields, lazily opened
// tenant state, progress only where a channel exists, the contract's fail/recoveryFor, and the collectors.
import { describe, expect, it, vi } from 'vitest';
import type { KilnContext } from '../../src/context/kiln-context.js';
import { withExtra } from '../../src/context/request-context.js';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { McpError } from '../../src/errors/mcp-error.js';
import { buildContext } from './context-fixtures.js';

describe('identity fields', () => {
  it('copies every identity field of the seed', () => {
    const identity = {
      requestId: 'ABCDE-FGHJK',
      timestamp: '2026-01-02T03:04:05.000Z',
      tenantId: 'acme',
      sessionId: 'session-1',
      traceId: 'trace-1',
      spanId: 'span-1',
      auth: { clientId: 'cli', scopes: ['notes:read'], tenantId: 'acme' },
      operation: 'notes_get_note',
      extra: { attempt: 2 },
      era: 'handshake' as const,
    };
    const { context } = buildContext(identity);
    const copied = Object.fromEntries(Object.keys(identity).map((key) => [key, context[key as keyof typeof identity]]));
    expect(copied).toEqual(identity);
    expect(context.auth).toBe(identity.auth);
  });

  it('stamps the request start time when the seed has none', () => {
    const before = Date.now();
    const { context } = buildContext();
    const stamped = Date.parse(context.timestamp);
    expect(context.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(stamped).toBeGreaterThanOrEqual(before);
    expect(stamped).toBeLessThanOrEqual(Date.now());
  });

  it('keeps the start time however late it is first read, and the same one in a withExtra copy', () => {
    vi.useFakeTimers({ now: new Date('2026-03-04T05:06:07.089Z') });
    try {
      const { context } = buildContext();
      vi.setSystemTime(new Date('2026-03-04T05:07:00.000Z'));
      expect(context.timestamp).toBe('2026-03-04T05:06:07.089Z');
      expect((context as KilnContext).withExtra({ itemId: 'x' }).timestamp).toBe('2026-03-04T05:06:07.089Z');
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes the seed’s signal, capabilities and uri through', () => {
    const controller = new AbortController();
    const uri = new URL('notes://42');
    const { context } = buildContext({ signal: controller.signal, clientCapabilities: { sampling: {} }, uri });
    expect(context.signal).toBe(controller.signal);
    expect(context.clientCapabilities).toEqual({ sampling: {} });
    expect(context.uri).toBe(uri);
  });
});

describe('withExtra', () => {
  it('merges into the parent’s extra bag and leaves the parent untouched', () => {
    const { context } = buildContext({ extra: { attempt: 1, url: 'https://a.example' } });
    const child = withExtra(context, { attempt: 2, itemId: 'x' });
    expect(child.extra).toEqual({ attempt: 2, url: 'https://a.example', itemId: 'x' });
    expect(context.extra).toEqual({ attempt: 1, url: 'https://a.example' });
    expect(child.requestId).toBe(context.requestId);
    expect(child.tenantId).toBe(context.tenantId);
  });

  it('creates the bag when the parent had none', () => {
    const child = withExtra({ requestId: 'R', timestamp: 'T' }, { itemId: 'x' });
    expect(child).toEqual({ requestId: 'R', timestamp: 'T', extra: { itemId: 'x' } });
  });

  it('keeps the copy a working Context', async () => {
    const { context } = buildContext({ tenantId: 'acme' });
    const child = withExtra(context, { itemId: 'x' });
    await child.state.set('item/x', { ok: true });
    expect(await context.state.get('item/x')).toEqual({ ok: true });
    expect(() => child.log.info('still logs')).not.toThrow();
    expect(child.fail).toBe(context.fail);
    expect({ ...child }.extra).toEqual({ itemId: 'x' });
  });
});

describe('ctx.state', () => {
  it('is not opened until a handler touches it, then opened once', () => {
    const fixture = buildContext({ tenantId: 'acme' });
    expect(fixture.openedState).toEqual([]);
    const first = fixture.context.state;
    const second = fixture.context.state;
    expect(first).toBe(second);
    expect(fixture.openedState).toEqual(['acme']);
  });

  it('is scoped to the request’s tenant', async () => {
    const fixture = buildContext({ tenantId: 'acme' });
    await fixture.context.state.set('plan', 'pro');
    expect(await fixture.storage.forTenant('acme').get('plan')).toBe('pro');
    expect(await fixture.storage.forTenant('globex').get('plan')).toBeNull();
  });

  it('fails only on use when the request has no tenant', async () => {
    const fixture = buildContext({ tenantId: undefined });
    const state = fixture.context.state;
    const failure = await state.get('plan').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(JsonRpcErrorCode.InvalidRequest);
  });
});

describe('ctx.progress', () => {
  it('sends progress through the channel, omitting what the caller did not give', async () => {
    const progress = vi.fn(async () => undefined);
    const { context } = buildContext({ channel: { progress } });
    await context.progress(1, 4, 'Indexing');
    await context.progress(2);
    expect(progress.mock.calls).toEqual([[{ progress: 1, total: 4, message: 'Indexing' }], [{ progress: 2 }]]);
  });

  it('does nothing, and does not fail, when the request has no progress channel', async () => {
    const { context } = buildContext({ channel: {} });
    await expect(context.progress(1, 2, 'ignored')).resolves.toBeUndefined();
  });
});

describe('wiring', () => {
  it('exposes the channel’s notifications, and leaves absent ones undefined', () => {
    const toolListChanged = vi.fn();
    const { context } = buildContext({ channel: { toolListChanged } });
    context.notifyToolListChanged?.();
    expect(toolListChanged).toHaveBeenCalledOnce();
    expect(context.notifyResourceUpdated).toBeUndefined();
  });

  it('builds fail and recoveryFor from the contract it is given', () => {
    const contract = [
      {
        reason: 'no_match',
        code: JsonRpcErrorCode.NotFound,
        when: 'Nothing.',
        recovery: 'Try a broader query instead.',
      },
    ] as const;
    const { context } = buildContext({}, contract);
    expect(context.fail('no_match').code).toBe(JsonRpcErrorCode.NotFound);
    expect(context.recoveryFor('no_match')).toEqual({ recovery: { hint: 'Try a broader query instead.' } });
    expect(context.recoveryFor('other')).toEqual({});
  });

  it('feeds ctx.enrich and ctx.content into the collectors the pipeline reads back', () => {
    const { context, enrichment, media } = buildContext();
    context.enrich.total(3);
    context.content.image('AA==', 'image/png');
    expect(enrichment.values).toEqual({ totalCount: 3 });
    expect(media.blocks).toEqual([{ type: 'image', data: 'AA==', mimeType: 'image/png' }]);
  });

  it('gives every request its own collectors', () => {
    const first = buildContext();
    const second = buildContext();
    first.context.enrich({ region: 'eu' });
    expect(second.enrichment.values).toEqual({});
  });
});
