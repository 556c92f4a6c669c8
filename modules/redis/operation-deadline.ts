// A hard upper bound on one storage call. ioredis times out commands it has sent or queued on a node, but a Cluster
// client with no reachable node queues commands with no timer at all; the deadline makes "fails fast" hold anyway.

export class OperationDeadlineError extends Error {
  constructor(ms: number) {
    super(`Redis did not complete the operation within ${ms} ms`);
    this.name = 'OperationDeadlineError';
  }
}

/** Settles as `work` does, or rejects with OperationDeadlineError after `ms`; `work` itself is not cancelled. */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OperationDeadlineError(ms)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
