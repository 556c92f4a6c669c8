// `ctx.state.list` on every built-in provider: pagination, the limit rules, and the opaque cursor that is bound to
// the tenant and prefix it was issued for.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { type ContextState, StorageService } from '../../src/storage/index.js';
import { expectMcpError, manualClock, type ProviderUnderTest, providerFactories } from './storage-test-helpers.js';

const { ValidationError } = JsonRpcErrorCode;

function toBase64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

describe.each(providerFactories)('ContextState.list on the %s provider', (_name, makeProvider) => {
  let subject: ProviderUnderTest;
  let service: StorageService;
  let state: ContextState;

  beforeEach(async () => {
    subject = await makeProvider({ now: manualClock().now });
    service = new StorageService(subject.provider);
    state = service.forTenant('tenant-a');
  });

  afterEach(async () => {
    await subject.cleanup();
  });

  async function seed(prefix: string, count: number): Promise<string[]> {
    const keys = Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(3, '0')}`);
    await state.setMany(new Map(keys.map((key, index) => [key, { index }])));
    return keys;
  }

  it('pages through every item in key order, omitting the cursor on the last page', async () => {
    const keys = await seed('item/', 7);
    await state.set('other/1', 'not listed');
    const pages: Array<Awaited<ReturnType<ContextState['list']>>> = [];
    let cursor: string | undefined;
    do {
      const page = await state.list('item/', { limit: 3, ...(cursor === undefined ? {} : { cursor }) });
      pages.push(page);
      cursor = page.cursor;
    } while (cursor !== undefined && pages.length < 10);

    expect(pages.map((page) => page.items.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((page) => page.items.map((item) => item.key))).toEqual(keys);
    expect(pages[0]?.items[0]).toEqual({ key: 'item/000', value: { index: 0 } });
    expect(pages[0]?.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(pages.at(-1)).not.toHaveProperty('cursor');
  });

  it('omits the cursor when the last page is exactly full', async () => {
    await seed('p/', 6);
    const first = await state.list('p/', { limit: 3 });
    const second = await state.list('p/', { limit: 3, cursor: first.cursor as string });
    expect(second.items.map((item) => item.key)).toEqual(['p/003', 'p/004', 'p/005']);
    expect(second).not.toHaveProperty('cursor');
  });

  it('lists everything with no prefix and uses a default limit of 50', async () => {
    await seed('bulk/', 60);
    const first = await state.list();
    expect(first.items).toHaveLength(50);
    expect(first.cursor).toBeDefined();
    const rest = await state.list(undefined, { cursor: first.cursor as string });
    expect(rest.items.map((item) => item.key)).toEqual(Array.from({ length: 10 }, (_, i) => `bulk/0${50 + i}`));
  });

  it('accepts limits from 1 to 1000', async () => {
    await seed('l/', 3);
    expect((await state.list('l/', { limit: 1 })).items).toHaveLength(1);
    expect((await state.list('l/', { limit: 1000 })).items).toHaveLength(3);
  });

  it.each([0, -1, 1.5, 1001, Number.NaN, '10'])('rejects limit %j', async (limit) => {
    await expectMcpError(state.list('', { limit: limit as number }), ValidationError, /Invalid list limit/);
  });

  it('rejects a cursor issued to another tenant', async () => {
    await seed('item/', 4);
    const other = service.forTenant('tenant-b');
    await other.setMany(new Map(['item/000', 'item/001', 'item/002', 'item/003'].map((key) => [key, 'B'])));
    const foreign = (await other.list('item/', { limit: 2 })).cursor as string;
    await expectMcpError(
      state.list('item/', { cursor: foreign }),
      ValidationError,
      /^Invalid cursor: .*another tenant/,
    );
  });

  it('rejects a cursor issued for another prefix', async () => {
    await seed('item/', 4);
    const cursor = (await state.list('item/', { limit: 2 })).cursor as string;
    await expectMcpError(state.list('', { cursor }), ValidationError, /^Invalid cursor: .*different prefix/);
    await expectMcpError(state.list('item/0', { cursor }), ValidationError, /^Invalid cursor/);
  });

  it.each([
    ['not base64url', 'not a cursor!'],
    ['empty', ''],
    ['base64url of non-JSON', toBase64url('hello')],
    ['JSON of the wrong shape', toBase64url('{"t":1,"p":"x","k":"y"}')],
    ['JSON null', toBase64url('null')],
  ])('rejects a garbled cursor (%s)', async (_label, cursor) => {
    await seed('g/', 2);
    await expectMcpError(state.list('g/', { cursor }), ValidationError, /^Invalid cursor/);
  });

  it('rejects a cursor whose tenant hash was tampered with', async () => {
    await seed('item/', 4);
    const cursor = (await state.list('item/', { limit: 2 })).cursor as string;
    const payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, string>;
    const forged = toBase64url(JSON.stringify({ ...payload, t: 'AAAAAAAAAAAAAAAA' }));
    await expectMcpError(state.list('item/', { cursor: forged }), ValidationError, /another tenant/);
    const moved = toBase64url(JSON.stringify({ ...payload, k: 'zzz' }));
    await expectMcpError(state.list('item/', { cursor: moved }), ValidationError, /outside the prefix/);
  });
});
