// Shared pieces of the storage tests: a hand-driven clock for TTL behaviour, factories for each provider, and an
// assertion on Kiln error codes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { McpError } from '../../src/errors/index.js';
import { FilesystemStorageProvider, InMemoryStorageProvider, type StorageProvider } from '../../src/storage/index.js';

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
}

export type MakeProvider = (options: { now: () => number }) => Promise<ProviderUnderTest>;

export function freshTempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'kiln-storage-'));
}

export const makeInMemoryProvider: MakeProvider = async ({ now }) => {
  const provider = new InMemoryStorageProvider({ now });
  return { provider, cleanup: () => provider.close() };
};

/** A filesystem provider on a fresh temp directory that cleanup removes. */
export const makeFilesystemProvider: MakeProvider = async ({ now }) => {
  const root = await freshTempDir();
  const provider = new FilesystemStorageProvider({ root, now });
  return {
    provider,
    cleanup: async () => {
      await provider.close();
      await rm(root, { recursive: true, force: true });
    },
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
