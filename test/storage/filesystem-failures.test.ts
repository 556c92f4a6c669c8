// Real filesystem failures, provoked on disk, as a client and as the server log see them: the client's error names
// the key, the operation and a next step, never the storage path, errno or syscall; the cause and the log keep those.
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { type McpError } from '../../src/errors/mcp-error.js';
import { entryPath, TEMP_DIR_NAME, tenantDirectory } from '../../src/storage/filesystem-layout.js';
import { FilesystemStorageProvider, StorageService } from '../../src/storage/index.js';
import { type CapturedLogger, captureLogger, expectMcpError, freshTempDir } from './storage-test-helpers.js';

const ERRNO = /\bE[A-Z]{2,}\b/;
const SYSCALL = /\b(mkdir|open|rename|scandir|link|stat|unlink)\b/;

/** What reaches the wire of an McpError: its message and data (the cause is never serialized). */
function wireText(error: McpError): string {
  return JSON.stringify({ message: error.message, data: error.data });
}

describe('FilesystemStorageProvider failures', () => {
  let dir: string;
  let root: string;
  let log: CapturedLogger;
  let provider: FilesystemStorageProvider;

  beforeEach(async () => {
    dir = await freshTempDir();
    root = join(dir, 'store');
    log = captureLogger();
    provider = new FilesystemStorageProvider({ root, logger: log.logger, sweepIntervalMs: 0 });
  });

  afterEach(async () => {
    await provider.close();
    await chmod(dir, 0o700);
    await rm(dir, { recursive: true, force: true });
  });

  function expectClientSafe(error: McpError): void {
    const wire = wireText(error);
    expect(wire).not.toContain(dir);
    expect(wire).not.toMatch(ERRNO);
    expect(wire).not.toMatch(SYSCALL);
    expect(error.data?.recovery?.hint).toEqual(expect.any(String));
  }

  /** The error line the provider logged for this failure, carrying what the client was not told. */
  function loggedFailure(): Record<string, unknown> {
    const errors = log.lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    return errors[0] ?? {};
  }

  it('a file where the temp directory belongs: the client sees the key, the log sees errno and path', async () => {
    await mkdir(root, { recursive: true });
    await writeFile(join(root, TEMP_DIR_NAME), 'in the way');
    const error = await expectMcpError(provider.set('t', 'notes/1', '1'), JsonRpcErrorCode.StorageError);
    expect(error.message).toBe('Storage could not write key "notes/1". The server log has the details.');
    expect(error.data).toMatchObject({ reason: 'storage_io', operation: 'set', key: 'notes/1' });
    expectClientSafe(error);
    // Which errno depends on the Node version (EEXIST from mkdir, ENOTDIR from its lstat); both are on the cause.
    const cause = error.cause as NodeJS.ErrnoException;
    expect(cause).toMatchObject({ code: expect.stringMatching(ERRNO), syscall: expect.any(String) });
    expect(cause.message).toContain(root);
    expect(loggedFailure()).toMatchObject({
      tenantId: 't',
      operation: 'set',
      key: 'notes/1',
      errno: cause.code,
      syscall: cause.syscall,
      path: expect.stringContaining(root),
      err: { message: expect.stringContaining(root) },
    });
  });

  it('a directory where an entry file belongs: get and set fail without the path', async () => {
    await mkdir(entryPath(tenantDirectory(root, 't'), 'k'), { recursive: true });
    const read = await expectMcpError(provider.get('t', 'k'), JsonRpcErrorCode.StorageError, /read key "k"/);
    expect(read.data).toMatchObject({ reason: 'storage_io', operation: 'get', key: 'k' });
    expectClientSafe(read);
    expect(read.cause).toMatchObject({ code: 'EISDIR' });

    const write = await expectMcpError(provider.set('t', 'k', '1'), JsonRpcErrorCode.StorageError, /write key "k"/);
    expectClientSafe(write);
    expect(log.lines.filter((line) => line.level === 'error').map((line) => line.errno)).toEqual([
      'EISDIR',
      expect.stringMatching(ERRNO),
    ]);
  });

  it('a file where the tenant directory belongs: list fails naming the prefix', async () => {
    await mkdir(root, { recursive: true });
    await writeFile(tenantDirectory(root, 't'), 'not a directory');
    const error = await expectMcpError(provider.list('t', 'notes/', { limit: 5 }), JsonRpcErrorCode.StorageError);
    expect(error.message).toBe('Storage could not list keys under prefix "notes/". The server log has the details.');
    expect(error.data).toMatchObject({ reason: 'storage_io', operation: 'list', prefix: 'notes/' });
    expectClientSafe(error);
    expect(loggedFailure()).toMatchObject({ errno: 'ENOTDIR', prefix: 'notes/', path: expect.stringContaining(root) });
  });

  // Root ignores permission bits, so only an unprivileged run can provoke EACCES this way; as root the ENOTDIR
  // cases above cover the same masking path, so the case is not registered rather than reported as skipped.
  if (process.getuid?.() !== 0)
    it('a read-only tenant directory: a new key fails without the path', async () => {
      await provider.set('t', 'existing', '1');
      await chmod(tenantDirectory(root, 't'), 0o500);
      try {
        const error = await expectMcpError(provider.set('t', 'fresh', '1'), JsonRpcErrorCode.StorageError);
        expectClientSafe(error);
        expect(error.cause).toMatchObject({ code: 'EACCES' });
      } finally {
        await chmod(tenantDirectory(root, 't'), 0o700);
      }
    });

  it('a corrupt entry file: get names the key, the cause and the log name the file', async () => {
    await provider.set('t', 'k', '1');
    await writeFile(entryPath(tenantDirectory(root, 't'), 'k'), '{ not json');
    const error = await expectMcpError(provider.get('t', 'k'), JsonRpcErrorCode.StorageError);
    expect(error.message).toBe('Storage could not read the stored value of key "k": it is corrupt.');
    expect(error.data).toMatchObject({ reason: 'storage_corrupt', operation: 'get', key: 'k' });
    expect(error.data?.recovery?.hint).toMatch(/Delete the key/);
    expectClientSafe(error);
    expect(String((error.cause as Error).message)).toContain(root);
    expect(loggedFailure()).toMatchObject({ key: 'k', path: expect.stringContaining(root) });
  });

  it('a corrupt entry file while listing: skipped with a warning that names the file', async () => {
    await provider.set('t', 'a', '1');
    await provider.set('t', 'b', '2');
    await writeFile(entryPath(tenantDirectory(root, 't'), 'a'), '{"v":42}');
    expect((await provider.list('t', '', { limit: 10 })).items).toEqual([{ key: 'b', value: '2' }]);
    const warnings = log.lines.filter((line) => line.level === 'warning');
    expect(warnings).toEqual([
      expect.objectContaining({ tenantId: 't', operation: 'list', key: 'a', path: expect.stringContaining(root) }),
    ]);
  });

  it('through ctx.state, the error a handler throws is the same client-safe one', async () => {
    await mkdir(root, { recursive: true });
    await writeFile(join(root, TEMP_DIR_NAME), 'in the way');
    const state = new StorageService(provider).forTenant('t');
    const error = await expectMcpError(state.set('consent/abc', { ok: true }), JsonRpcErrorCode.StorageError);
    expect(error.data).toMatchObject({ reason: 'storage_io', key: 'consent/abc' });
    expectClientSafe(error);
  });
});
