// The entry limit on a root shared by several filesystem provider instances: each trusts the count it last walked
// for a few seconds (injected clock), then walks again and sees what the others wrote.
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { FilesystemStorageProvider } from '../../src/storage/index.js';
import { expectMcpError, freshTempDir, manualClock } from './storage-test-helpers.js';

describe('FilesystemStorageProvider quota across instances', () => {
  let root: string;

  beforeEach(async () => {
    root = await freshTempDir();
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('counts entries another instance wrote once its own count is five seconds old', async () => {
    const clock = manualClock();
    const options = { root, now: clock.now, maxEntriesPerTenant: 3, sweepIntervalMs: 0 };
    const first = new FilesystemStorageProvider(options);
    const second = new FilesystemStorageProvider(options);
    await first.set('t', 'a', '1');
    await second.set('t', 'b', '1');
    await second.set('t', 'c', '1');
    clock.advanceSeconds(5);
    const error = await expectMcpError(first.set('t', 'd', '1'), JsonRpcErrorCode.StorageError);
    expect(error.data).toMatchObject({ reason: 'state_quota_exceeded', limit: 3 });
    await second.delete('t', 'b');
    await first.set('t', 'd', '1');
    await Promise.all([first.close(), second.close()]);
  });
});
