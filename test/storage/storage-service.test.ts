// The app-wide StorageService and the config-driven provider factory.
import { readdir, rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { createStorageProvider } from '../../src/storage/create-storage-provider.js';
import {
  FilesystemStorageProvider,
  InMemoryStorageProvider,
  type StorageProviderConfig,
  StorageService,
} from '../../src/storage/index.js';
import { expectMcpError, freshTempDir } from './storage-test-helpers.js';

describe('createStorageProvider', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await freshTempDir();
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('builds an in-memory provider', () => {
    expect(createStorageProvider({ type: 'in-memory' })).toBeInstanceOf(InMemoryStorageProvider);
  });

  it('builds a filesystem provider writing under the configured path', async () => {
    const provider = createStorageProvider({ type: 'filesystem', path: dir });
    expect(provider).toBeInstanceOf(FilesystemStorageProvider);
    await provider.set('t', 'k', '1');
    expect(await readdir(dir)).toContain('t_74');
  });

  it.each([
    ['in-memory', (): StorageProviderConfig => ({ type: 'in-memory', maxEntriesPerTenant: 1 })],
    ['filesystem', (): StorageProviderConfig => ({ type: 'filesystem', path: dir, maxEntriesPerTenant: 1 })],
  ])('passes the entry limit to the %s provider', async (_name, config) => {
    const provider = createStorageProvider({ ...config(), sweepIntervalMs: 0 });
    await provider.set('t', 'first', '1');
    const error = await expectMcpError(provider.set('t', 'second', '1'), JsonRpcErrorCode.StorageError);
    expect(error.data).toMatchObject({ reason: 'state_quota_exceeded', limit: 1 });
    await provider.close();
  });

  it.each([
    { maxEntriesPerTenant: 0 },
    { maxEntriesPerTenant: 1.5 },
    { sweepIntervalMs: -1 },
    { sweepIntervalMs: Number.NaN },
  ])('refuses the limits %j', (limits) => {
    expect(() => createStorageProvider({ type: 'in-memory', ...limits })).toThrow(
      expect.objectContaining({
        code: JsonRpcErrorCode.ConfigurationError,
        data: { reason: 'storage_limit_invalid' },
      }) as unknown as Error,
    );
  });

  it('rejects a filesystem config without a path, an unknown type, and Redis without its module', () => {
    expect(() => createStorageProvider({ type: 'filesystem', path: '' })).toThrow(
      expect.objectContaining({ code: JsonRpcErrorCode.ConfigurationError }) as unknown as Error,
    );
    expect(() => createStorageProvider({ type: 'tape' } as unknown as StorageProviderConfig)).toThrow(
      /Unknown storage provider type "tape"/,
    );
    // Redis lives in a module: the storage layer names what to do instead of building it.
    expect(() => createStorageProvider({ type: 'redis', url: 'redis://h:1' } as StorageProviderConfig)).toThrow(
      /needs the Redis module/,
    );
  });
});

describe('StorageService', () => {
  it('hands out tenant-scoped states over one provider', async () => {
    const service = new StorageService(new InMemoryStorageProvider());
    await service.forTenant('a').set('k', 'from a');
    expect(await service.forTenant('a').get('k')).toBe('from a');
    expect(await service.forTenant('b').get('k')).toBeNull();
  });

  it('closes its provider', async () => {
    const service = new StorageService(new InMemoryStorageProvider());
    const state = service.forTenant('a');
    await service.close();
    await expectMcpError(state.get('k'), JsonRpcErrorCode.StorageError, /closed/);
  });
});
