// How a storage failure reads on each side. McpError `data` and message go on the wire, so they name only the key,
// the operation and what to do next; the path, errno and syscall go to the server log and the never-serialized cause.
import { storageError } from '../errors/factories.js';
import { type McpError } from '../errors/mcp-error.js';
import type { Logger } from '../logging/index.js';
import { quoteKey } from './storage-keys.js';

/** The logger a provider may take: only the two levels storage reports at. */
export type StorageLogger = Pick<Logger, 'warning' | 'error'>;

export type StorageOperation =
  | 'get'
  | 'set'
  | 'setIfAbsent'
  | 'delete'
  | 'take'
  | 'getMany'
  | 'setMany'
  | 'deleteMany'
  | 'list'
  | 'claimRate'
  | 'addCounter'
  | 'readCounters';

/** What a failed call was doing, in the caller's terms. */
export interface StorageFailureSubject {
  readonly operation: StorageOperation;
  readonly tenantId: string;
  /** The key the call was working on, when there was one. */
  readonly key?: string;
  /** The prefix of a `list`. */
  readonly prefix?: string;
}

const VERBS: { [operation in StorageOperation]: string } = {
  get: 'read',
  getMany: 'read',
  set: 'write',
  setMany: 'write',
  setIfAbsent: 'write',
  delete: 'delete',
  deleteMany: 'delete',
  take: 'take',
  list: 'list',
  claimRate: 'count',
  addCounter: 'count',
  readCounters: 'read',
};

function target(subject: ClientSubject): string {
  if (subject.key !== undefined) return `key ${quoteKey(subject.key)}`;
  return subject.prefix ? `keys under prefix ${quoteKey(subject.prefix)}` : 'keys';
}

/** The part of a subject a client is told; the tenant is left out because the caller already knows its own. */
export type ClientSubject = Pick<StorageFailureSubject, 'operation' | 'key' | 'prefix'>;

function where(subject: ClientSubject) {
  return {
    operation: subject.operation,
    ...(subject.key === undefined ? {} : { key: subject.key }),
    ...(subject.prefix === undefined ? {} : { prefix: subject.prefix }),
  };
}

/** The backend failed (disk, permissions, network): worth a retry, and otherwise an operator's problem. */
export function storageIoError(subject: ClientSubject, cause: unknown): McpError {
  return storageError(
    `Storage could not ${VERBS[subject.operation]} ${target(subject)}. The server log has the details.`,
    {
      reason: 'storage_io',
      ...where(subject),
      recovery: { hint: 'Retry the call. If it fails again, report the request id to the server operator.' },
    },
    { cause },
  );
}

/** The stored bytes are not a value any write produced; only deleting the key gets past it. */
export function corruptEntryError(subject: ClientSubject, cause: unknown): McpError {
  const key = subject.key === undefined ? 'a stored value' : `the stored value of key ${quoteKey(subject.key)}`;
  return storageError(
    `Storage could not read ${key}: it is corrupt.`,
    {
      reason: 'storage_corrupt',
      ...where(subject),
      recovery: { hint: 'Delete the key and write it again; its old value cannot be recovered.' },
    },
    { cause },
  );
}

/** A write that would add keys to a tenant already holding its maximum of live entries. */
export function quotaExceededError(
  subject: Pick<ClientSubject, 'operation' | 'key'>,
  limit: number,
  added: number,
): McpError {
  const what = subject.key !== undefined ? `key ${quoteKey(subject.key)}` : `${added} new keys`;
  return storageError(`Storage is full: this tenant may hold at most ${limit} entries, so ${what} cannot be added.`, {
    reason: 'state_quota_exceeded',
    ...where(subject),
    limit,
    recovery: {
      hint: 'Delete keys that are no longer needed, or write short-lived values with a ttl so they expire. Overwriting an existing key still works.',
    },
  });
}

/** The diagnosis a client never sees: fs errors carry `code`, `syscall` and `path`, a corrupt entry its `path`. */
export function logStorageFailure(
  logger: StorageLogger | undefined,
  level: 'warning' | 'error',
  message: string,
  subject: StorageFailureSubject,
  error: unknown,
): void {
  if (!logger) return;
  const detail = error as { code?: unknown; syscall?: unknown; path?: unknown } | null | undefined;
  logger[level](
    {
      ...subject,
      ...(typeof detail?.code === 'string' ? { errno: detail.code } : {}),
      ...(typeof detail?.syscall === 'string' ? { syscall: detail.syscall } : {}),
      ...(typeof detail?.path === 'string' ? { path: detail.path } : {}),
      err: error,
    },
    message,
  );
}
