// Redis failures as Kiln StorageErrors. The client-facing message names only the operation: ioredis messages carry
// hosts and ports ("connect ECONNREFUSED 10.0.0.7:6379"), so the original error rides in `cause`, for logs only.

import { McpError, storageError } from '../../src/errors/index.js';

/** Server replies that mean "not now" (failover, loading, cluster reconfiguring) rather than "never". */
const TRANSIENT_REPLIES = new Set([
  'CLUSTERDOWN',
  'LOADING',
  'TRYAGAIN',
  'MASTERDOWN',
  'READONLY',
  'BUSY',
  'MOVED',
  'ASK',
]);

/** Errors thrown by our own code rather than by the client or the server. */
const PROGRAMMING_ERRORS = [TypeError, RangeError, SyntaxError, ReferenceError];

export const STORAGE_UNAVAILABLE_HINT =
  'The storage backend is temporarily unreachable; retry the request in a few seconds.';
export const STORAGE_FULL_HINT =
  'The storage backend is out of memory; retry later, or ask the operator to add memory.';

/**
 * The code word of a server reply (`OOM`, `WRONGTYPE`), or undefined for errors Redis did not send. A MULTI that
 * Redis refused to run reports EXECABORT; the reply that caused it is the informative one.
 */
function replyCode(error: Error): string | undefined {
  if (error.name !== 'ReplyError') return undefined;
  const code = error.message.split(' ', 1)[0] ?? '';
  const cause = (error as { previousErrors?: unknown[] }).previousErrors?.[0];
  if (code === 'EXECABORT' && cause instanceof Error) return replyCode(cause) ?? code;
  return /^[A-Z]+$/.test(code) ? code : 'ERR';
}

/** What repeating a write does: `repeatable` writes (a set, a delete) leave the same state; a `take` does not. */
export type WriteEffect = 'repeatable' | 'consuming';

export const OUTCOME_UNKNOWN_HINT =
  'The server could not confirm a storage write, which may still have taken effect. Check before calling again, or ' +
  'call again with the same idempotency key (_meta "mcp-kiln/idempotency-key") where the tool accepts one.';

/**
 * A write sent to Redis whose answer never came (a timeout, a connection lost after sending): Redis may apply it
 * later or may have applied it already, so "retry" would be a guess. `data.repeatable` tells the app whether repeating
 * this same write is harmless.
 */
export function storageOutcomeUnknown(operation: string, effect: WriteEffect, cause: unknown): McpError {
  return storageError(
    `Redis storage did not confirm ${operation}: it may or may not have been applied`,
    {
      reason: 'storage_outcome_unknown',
      repeatable: effect === 'repeatable',
      recovery: { hint: OUTCOME_UNKNOWN_HINT },
    },
    { cause },
  );
}

/**
 * A failed write as the caller should see it: Redis's refusal (nothing applied) as for any call; anything else once
 * the write was handed to a ready connection is an unknown outcome, never "retry".
 */
export function toWriteError(error: unknown, operation: string, effect: WriteEffect): McpError {
  if (error instanceof McpError || (error instanceof Error && replyCode(error) !== undefined)) {
    return toStorageError(error, operation);
  }
  if (!(error instanceof Error) || PROGRAMMING_ERRORS.some((type) => error instanceof type)) {
    return toStorageError(error, operation);
  }
  return storageOutcomeUnknown(operation, effect, error);
}

export function storageUnavailable(operation: string, cause: unknown): McpError {
  return storageError(
    `Redis storage is unavailable: ${operation} did not complete`,
    { reason: 'storage_unavailable', recovery: { hint: STORAGE_UNAVAILABLE_HINT } },
    { cause },
  );
}

/**
 * Everything that is not an answer from Redis (refused or reset connections, timeouts, exhausted retries, a
 * cluster without a reachable node) and the transient replies is `storage_unavailable`; OOM under the
 * `noeviction` policy is `storage_full`; other replies (NOAUTH, WRONGTYPE, ...) are `storage_failed`.
 */
export function toStorageError(error: unknown, operation: string): McpError {
  if (error instanceof McpError) return error;
  if (!(error instanceof Error) || PROGRAMMING_ERRORS.some((type) => error instanceof type)) {
    return storageError(
      `Redis storage failed: ${operation} did not complete`,
      { reason: 'storage_failed' },
      { cause: error },
    );
  }
  const code = replyCode(error);
  if (code === undefined || TRANSIENT_REPLIES.has(code)) return storageUnavailable(operation, error);
  if (code === 'OOM') {
    return storageError(
      `Redis storage is full: ${operation} was refused`,
      { reason: 'storage_full', recovery: { hint: STORAGE_FULL_HINT } },
      { cause: error },
    );
  }
  return storageError(
    `Redis storage refused ${operation} (${code})`,
    { reason: 'storage_failed', redisError: code },
    { cause: error },
  );
}
