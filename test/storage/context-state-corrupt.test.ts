// `ctx.state` over a stored value that is not JSON (written around it, or damaged in the backend), on every built-in
// provider: reading that key is a clear storage_corrupt error, listing skips it with one warning, deleting clears it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { type ContextState, StorageService } from '../../src/storage/index.js';
import {
  type CapturedLogger,
  captureLogger,
  expectMcpError,
  manualClock,
  type ProviderUnderTest,
  providerFactories,
} from './storage-test-helpers.js';

const T = 'tenant-a';

describe.each(providerFactories)('ContextState over a value that is not JSON, on the %s provider', (_n, make) => {
  let subject: ProviderUnderTest;
  let log: CapturedLogger;
  let state: ContextState;

  beforeEach(async () => {
    subject = await make({ now: manualClock().now });
    log = captureLogger();
    state = new StorageService(subject.provider, log.logger).forTenant(T);
    await state.setMany(new Map(['a', 'c', 'd'].map((key) => [`item/${key}`, key])));
    await subject.provider.set(T, 'item/b', '{ not json');
  });

  afterEach(async () => {
    await subject.cleanup();
  });

  it('get, getMany and take reject storage_corrupt naming the key', async () => {
    const error = await expectMcpError(state.get('item/b'), JsonRpcErrorCode.StorageError, /"item\/b".*corrupt/);
    expect(error.data).toMatchObject({ reason: 'storage_corrupt', operation: 'get', key: 'item/b' });
    expect(error.data?.recovery?.hint).toMatch(/Delete the key/);
    await expectMcpError(state.getMany(['item/a', 'item/b']), JsonRpcErrorCode.StorageError, /"item\/b"/);
    await expectMcpError(state.take('item/b'), JsonRpcErrorCode.StorageError, /"item\/b"/);
  });

  it('list skips it with one warning per call, and the cursor pages past it', async () => {
    expect((await state.list('item/')).items).toEqual([
      { key: 'item/a', value: 'a' },
      { key: 'item/c', value: 'c' },
      { key: 'item/d', value: 'd' },
    ]);
    // A page whose last entry is the skipped one still hands out a cursor past it.
    const first = await state.list('item/', { limit: 2 });
    expect(first.items).toEqual([{ key: 'item/a', value: 'a' }]);
    const second = await state.list('item/', { limit: 2, cursor: first.cursor as string });
    expect(second.items.map((item) => item.key)).toEqual(['item/c', 'item/d']);
    expect(second).not.toHaveProperty('cursor');
    const warnings = log.lines.filter((line) => line.level === 'warning');
    expect(warnings).toHaveLength(2);
    for (const warning of warnings) expect(warning).toMatchObject({ tenantId: T, key: 'item/b' });
  });

  it('delete clears it, after which the key reads as absent', async () => {
    await state.delete('item/b');
    expect(await state.get('item/b')).toBeNull();
  });
});
