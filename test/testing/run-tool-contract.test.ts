// runToolContract: one tool class through the production pipeline, with its dependencies supplied as instances,
// by a resolve function, or by their own classes.
import { JsonRpcErrorCode, KilnBootError } from 'mcp-kiln/errors';
import { createInMemoryStorage, createMockContext, getLogs, getProgress, runToolContract } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import {
  Clock,
  GetItemTool,
  InventoryService,
  ItemNotFound,
  RenderBadgeTool,
  SHOP_NAME,
} from './fixtures/inventory.js';

const hint = ItemNotFound[0].recovery;

describe('runToolContract success', () => {
  it('provides class dependencies by their own classes and returns both surfaces', async () => {
    const result = await runToolContract(GetItemTool, { id: 'hammer' });
    const structured = { id: 'hammer', label: 'Claw hammer', checkedAt: '2026-01-01T00:00:00.000Z' };
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(structured);
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(structured, null, 2) }]);
  });

  it('uses supplied instances by token', async () => {
    const fake = { find: () => ({ id: 'x', label: 'Fake' }), stamp: () => 'then' } as unknown as InventoryService;
    const result = await runToolContract(GetItemTool, { id: 'x' }, { providers: new Map([[InventoryService, fake]]) });
    expect(result.structuredContent).toEqual({ id: 'x', label: 'Fake', checkedAt: 'then' });
  });

  it('asks a resolve function, falling back to the class when it answers undefined', async () => {
    const asked: unknown[] = [];
    const result = await runToolContract(
      GetItemTool,
      { id: 'hammer' },
      {
        providers: (token) => {
          asked.push(token);
          return token === Clock ? { now: () => 'frozen' } : undefined;
        },
      },
    );
    expect(asked).toEqual([InventoryService, Clock]);
    expect(result.structuredContent).toMatchObject({ label: 'Claw hammer', checkedAt: 'frozen' });
  });

  it('runs as the given context: its storage, tenant, log mirror and progress channel', async () => {
    const storage = createInMemoryStorage();
    const ctx = createMockContext({ tenantId: 'acme', storage });
    const options = { ctx, providers: new Map([[SHOP_NAME, 'Depot']]) };
    const first = await runToolContract(RenderBadgeTool, { label: 'Nails' }, options);
    const second = await runToolContract(RenderBadgeTool, { label: 'Screws' }, options);

    expect(first.content).toEqual([
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'text', text: JSON.stringify({ label: 'Depot: Nails' }, null, 2) },
      { type: 'text', text: expect.stringContaining('1 total') },
    ]);
    expect(second.structuredContent).toEqual({ label: 'Depot: Screws', totalCount: 2 });
    expect(await ctx.state.get('badges/count')).toBe(2);
    expect(await createMockContext({ tenantId: 'globex', storage }).state.get('badges/count')).toBeNull();
    expect(getLogs(ctx).map((log) => log.data.label)).toEqual(['Nails', 'Screws']);
    expect(getProgress(ctx)).toHaveLength(4);
  });
});

describe('runToolContract failures', () => {
  it('fills the contract recovery hint into a ctx.fail envelope on both surfaces', async () => {
    const ctx = createMockContext({ requestId: 'req-7' });
    const result = await runToolContract(GetItemTool, { id: 'nope' }, { ctx });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: {
        code: JsonRpcErrorCode.NotFound,
        message: 'No item has id nope.',
        data: { reason: 'no_match', recovery: { hint }, requestId: 'req-7' },
      },
    });
    const [block] = result.content;
    expect(block).toMatchObject({ type: 'text', text: expect.stringContaining(`**Recovery:** ${hint}`) });
  });

  it('fills the hint for a failure a service threw with only a reason', async () => {
    const result = await runToolContract(GetItemTool, { id: 'nope', strict: true });
    expect(result.structuredContent).toMatchObject({
      error: { message: 'Nothing is stocked under nope.', data: { reason: 'no_match', recovery: { hint } } },
    });
  });

  it('rejects arguments the input schema refuses, before the handler runs', async () => {
    const result = await runToolContract(GetItemTool, { strict: true });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: { code: JsonRpcErrorCode.InvalidParams, data: { reason: 'invalid_arguments' } },
    });
  });

  it('masks an unexpected error behind the request id', async () => {
    const broken = {
      find: () => {
        throw new Error('database password leaked');
      },
    };
    const ctx = createMockContext({ requestId: 'req-9' });
    const result = await runToolContract(
      GetItemTool,
      { id: 'x' },
      { ctx, providers: new Map([[InventoryService, broken]]) },
    );
    expect(result.structuredContent).toMatchObject({
      error: { code: JsonRpcErrorCode.InternalError, data: { requestId: 'req-9' } },
    });
    expect(JSON.stringify(result)).not.toContain('leaked');
  });

  it('fails boot, naming the token, when a dependency has no class and no supplied instance', async () => {
    const run = runToolContract(RenderBadgeTool, { label: 'x' });
    await expect(run).rejects.toBeInstanceOf(KilnBootError);
    await expect(run).rejects.toThrow(/SHOP_NAME/);
  });

  it('refuses a class without @Tool', async () => {
    await expect(runToolContract(Clock, {})).rejects.toThrow(/Clock has no @Tool\(\) decorator/);
  });
});
