// createMockContext and its read-back helpers: real state rules, tenant scoping, and capture of what a handler
// enriched, collected, reported and logged.
import { type Context } from 'mcp-kiln';
import { JsonRpcErrorCode, McpError } from 'mcp-kiln/errors';
import {
  createInMemoryStorage,
  createMockContext,
  getContentBlocks,
  getEnrichment,
  getEnrichmentKinds,
  getLogs,
  getProgress,
} from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/logging/index.js';
import { Clock, GetItemTool, InventoryService, ItemNotFound, RenderBadgeTool } from './fixtures/inventory.js';

describe('createMockContext state', () => {
  it('rejects a key production rejects, on writes, reads and list prefixes alike', async () => {
    const ctx = createMockContext();
    await expect(ctx.state.set('item:1', 1)).rejects.toMatchObject({ code: JsonRpcErrorCode.ValidationError });
    await expect(ctx.state.get('../escape')).rejects.toMatchObject({ code: JsonRpcErrorCode.ValidationError });
    await expect(ctx.state.list('bad prefix')).rejects.toMatchObject({ code: JsonRpcErrorCode.ValidationError });
  });

  it('round-trips values as JSON, as every production provider does', async () => {
    const ctx = createMockContext();
    const written = { at: new Date('2026-01-02T03:04:05.000Z'), tags: ['a'] };
    await ctx.state.set('items/1', written);
    const read = await ctx.state.get('items/1');
    expect(read).toEqual({ at: '2026-01-02T03:04:05.000Z', tags: ['a'] });
    expect(read).not.toBe(written);
  });

  it('keeps tenants apart when two contexts share one storage', async () => {
    const storage = createInMemoryStorage();
    const acme = createMockContext({ tenantId: 'acme', storage });
    const globex = createMockContext({ tenantId: 'globex', storage });
    await acme.state.set('notes/1', 'acme secret');
    expect(await globex.state.get('notes/1')).toBeNull();
    expect((await globex.state.list('notes/')).items).toEqual([]);
    const acmeAgain = createMockContext({ tenantId: 'acme', storage });
    expect(await acmeAgain.state.get('notes/1')).toBe('acme secret');
  });

  it('gives each mock its own storage unless one is passed', async () => {
    const first = createMockContext();
    const second = createMockContext();
    await first.state.set('k', 1);
    expect(await second.state.get('k')).toBeNull();
  });
});

describe('createMockContext identity', () => {
  it('defaults to tenant default on the envelope era with no capability view', () => {
    const ctx = createMockContext();
    expect(ctx.tenantId).toBe('default');
    expect(ctx.era).toBe('envelope');
    expect(ctx.clientCapabilities).toBeUndefined();
    expect(ctx.requestId).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    expect(ctx.signal.aborted).toBe(false);
  });

  it('seeds what it is given, taking the tenant from auth when none is named', () => {
    const controller = new AbortController();
    const auth = { clientId: 'cli', scopes: ['notes:read'], tenantId: 'from-token' };
    const ctx = createMockContext({
      auth,
      requestId: 'req-1',
      signal: controller.signal,
      uri: 'notes://abc',
      clientCapabilities: { elicitation: {} },
    });
    controller.abort();
    expect(ctx).toMatchObject({
      tenantId: 'from-token',
      auth,
      requestId: 'req-1',
      clientCapabilities: { elicitation: {} },
    });
    expect(ctx.uri?.href).toBe('notes://abc');
    expect(ctx.signal.aborted).toBe(true);
    expect(createMockContext({ auth, tenantId: 'named' }).tenantId).toBe('named');
    // A principal without a tenant has none, as a token without one: ctx.state refuses it.
    expect(createMockContext({ auth: { clientId: 'c', scopes: [] } }).tenantId).toBeUndefined();
    expect(createMockContext().tenantId).toBe('default');
  });

  it('builds fail and recoveryFor from the given contract', () => {
    const ctx = createMockContext({ contract: ItemNotFound });
    const failure = ctx.fail('no_match', 'gone');
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({ code: JsonRpcErrorCode.NotFound, message: 'gone', data: { reason: 'no_match' } });
    expect(ctx.recoveryFor('no_match')).toEqual({ recovery: { hint: ItemNotFound[0].recovery } });
    expect(ctx.fail('typo').code).toBe(JsonRpcErrorCode.InternalError);
  });

  it('leaves a handler-thrown failure exactly as the throw site wrote it (the fill happens in the pipeline)', () => {
    const ctx = createMockContext({ contract: ItemNotFound });
    const tool = new GetItemTool(new InventoryService(new Clock()));
    expect(() => tool.handle({ id: 'nope', strict: false }, ctx)).toThrow(
      expect.objectContaining({ code: JsonRpcErrorCode.NotFound, data: { reason: 'no_match' } }),
    );
  });
});

describe('capture helpers', () => {
  it('read back the enrichment, media, progress and logs of a handler called directly', async () => {
    const ctx = createMockContext();
    const result = await new RenderBadgeTool('Corner').handle({ label: 'Nails' }, ctx);
    expect(result).toEqual({ label: 'Corner: Nails' });
    expect(getEnrichment(ctx)).toEqual({ totalCount: 1 });
    expect(getEnrichmentKinds(ctx)).toEqual({ totalCount: 'total' });
    expect(getContentBlocks(ctx)).toEqual([{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }]);
    expect(getProgress(ctx)).toEqual([
      { progress: 1, total: 2, message: 'drawing' },
      { progress: 2, total: 2 },
    ]);
    expect(getLogs(ctx)).toEqual([
      { level: 'info', message: 'Rendering badge', data: { label: 'Nails', shop: 'Corner' } },
    ]);
  });

  it('record the truncation disclosure fields and the last notice', () => {
    const ctx = createMockContext();
    ctx.enrich.notice('first');
    ctx.enrich.truncated({ shown: 10, cap: 10, guidance: 'Narrow the query.' });
    expect(getEnrichment(ctx)).toEqual({ truncated: true, shown: 10, cap: 10, notice: 'Narrow the query.' });
    expect(getEnrichmentKinds(ctx)).toEqual({ notice: 'notice' });
  });

  it('capture the wire copy of a log record: redacted, with the error described and every level kept', () => {
    const ctx = createMockContext();
    ctx.log.debug('probe');
    ctx.log.warning('login', { user: 'ann', password: 'hunter2' });
    ctx.log.error('save failed', new Error('disk full'), { id: 7 });
    expect(getLogs(ctx)).toEqual([
      { level: 'debug', message: 'probe', data: {} },
      { level: 'warning', message: 'login', data: { user: 'ann', password: REDACTED } },
      { level: 'error', message: 'save failed', data: { id: 7, error: 'disk full' } },
    ]);
  });

  it('return copies, so a later call does not change what a test already read', () => {
    const ctx = createMockContext();
    ctx.enrich({ a: 1 });
    const before = getEnrichment(ctx);
    ctx.enrich({ a: 2 });
    expect(before).toEqual({ a: 1 });
    expect(getEnrichment(ctx)).toEqual({ a: 2 });
  });

  it('refuse a context that createMockContext did not build', () => {
    const foreign = { ...createMockContext() } as Context;
    expect(() => getEnrichment(foreign)).toThrow(/getEnrichment\(\) needs a context made by createMockContext/);
    expect(() => getLogs(foreign)).toThrow(/getLogs\(\)/);
  });
});

describe('createMockContext: ctx.http', () => {
  it('is undefined unless the test says the call came over HTTP, then shows what it gave', () => {
    expect(createMockContext().http).toBeUndefined();
    const ctx = createMockContext({ http: { headers: { 'x-request-id': 'r-1' }, remoteAddress: '203.0.113.4' } });
    expect(ctx.http).toEqual({
      headers: { 'x-request-id': 'r-1' },
      remoteAddress: '203.0.113.4',
      url: 'http://127.0.0.1/mcp',
    });
  });
});
