// What a storage call during a Redis outage must look like to its caller: a prompt StorageError with reason
// `storage_unavailable` and a retry hint, naming no host or port. Shared by the single-node and Cluster fault tests.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { expectMcpError } from '../storage/storage-test-helpers.js';

/** Generous against the 2 s default deadline; the point is "bounded", not a latency figure. */
const PROMPT_FAILURE_MS = 3_000;
const RECOVERY_TIMEOUT_MS = 20_000;

export async function expectUnavailable(call: Promise<unknown>, ports: readonly number[]): Promise<void> {
  const started = performance.now();
  const error = await expectMcpError(call, JsonRpcErrorCode.StorageError);
  const elapsed = performance.now() - started;
  expect(error.data).toMatchObject({
    reason: 'storage_unavailable',
    recovery: { hint: expect.stringMatching(/retry/) },
  });
  const visible = `${error.message} ${JSON.stringify(error.data)}`;
  expect(visible).not.toMatch(/127\.0\.0\.1|localhost/);
  for (const port of ports) expect(visible).not.toContain(String(port));
  expect(elapsed).toBeLessThan(PROMPT_FAILURE_MS);
}

/** Retries `call` until it resolves (the provider reconnecting by itself) and returns its result. */
export async function untilRecovered<T>(call: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + RECOVERY_TIMEOUT_MS;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}
