// Shared pieces of the storage tests: a hand-driven clock for TTL behaviour, factories for each provider, a logger
// whose lines can be inspected, and an assertion on Kiln error codes.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { McpError } from '../../src/errors/mcp-error.js';
import { createLogger, type Logger } from '../../src/logging/index.js';
import { entryPath, tenantDirectory } from '../../src/storage/filesystem-layout.js';
import {
  FilesystemStorageProvider,
  InMemoryStorageProvider,
  type StorageLogger,
  type StorageProvider,
} from '../../src/storage/index.js';
import { type CapturedLines, captureDestination } from '../logging/capture-destination.js';

export interface ManualClock {
  now: () => number;
  advanceSeconds(seconds: number): void;
  advanceMs(ms: number): void;
}

export function manualClock(start = 1_700_000_000_000): ManualClock {
  let current = start;
  return {
    now: () => current,
    advanceSeconds(seconds) {
      current += seconds * 1000;
    },
    advanceMs(ms) {
      current += ms;
    },
  };
}

export interface ProviderUnderTest {
  provider: StorageProvider;
  cleanup: () => Promise<void>;
  /** Damages the stored entry of `key` in place, for providers whose entries can be corrupt. */
  corruptEntry?: (tenantId: string, key: string) => Promise<void>;
}

export interface MakeProviderOptions {
  now: () => number;
  /** Given when a test needs a small quota; a provider that opts into the quota cases must honour it. */
  maxEntriesPerTenant?: number;
  logger?: StorageLogger;
}

export type MakeProvider = (options: MakeProviderOptions) => Promise<ProviderUnderTest>;

export interface CapturedLogger {
  logger: Logger;
  lines: CapturedLines['lines'];
}

/** A real pino logger writing into memory. */
export function captureLogger(): CapturedLogger {
  const destination = captureDestination();
  return { logger: createLogger({ level: 'debug', destination }), lines: destination.lines };
}

export function freshTempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'kiln-storage-'));
}

export const makeInMemoryProvider: MakeProvider = async (options) => {
  const provider = new InMemoryStorageProvider(options);
  return { provider, cleanup: () => provider.close() };
};

/** Every file under `dir`, as paths relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

/** A filesystem provider on a fresh temp directory that cleanup removes. */
export const makeFilesystemProvider: MakeProvider = async (options) => {
  const root = await freshTempDir();
  const provider = new FilesystemStorageProvider({ root, ...options });
  return {
    provider,
    cleanup: async () => {
      await provider.close();
      await rm(root, { recursive: true, force: true });
    },
    corruptEntry: (tenantId, key) => writeFile(entryPath(tenantDirectory(root, tenantId), key), '{ not an entry'),
  };
};

export const providerFactories: Array<[name: string, make: MakeProvider]> = [
  ['in-memory', makeInMemoryProvider],
  ['filesystem', makeFilesystemProvider],
];

/** Awaits the rejection and checks it is an McpError with `code` (and, if given, a message matching `message`). */
export async function expectMcpError(promise: Promise<unknown>, code: number, message?: RegExp): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(McpError);
  const mcpError = error as McpError;
  expect(mcpError.code).toBe(code);
  if (message) expect(mcpError.message).toMatch(message);
  return mcpError;
}
