// The exactly-once property of `take` and `delete` under real concurrency, shared by the single-node and Cluster
// tests: many callers spread over several provider instances, each instance its own Redis connection.
import { expect } from 'vitest';
import type { StorageProvider } from '../../src/storage/index.js';

const CALLERS = 40;
const ROUNDS = 5;

export async function expectOneTakeWinnerPerRound(providers: readonly StorageProvider[], tenant: string) {
  for (let round = 0; round < ROUNDS; round++) {
    const value = `"round ${round}"`;
    await providers[round % providers.length]!.set(tenant, 'race/ticket', value);
    const takes = Array.from({ length: CALLERS }, (_, index) =>
      providers[index % providers.length]!.take(tenant, 'race/ticket'),
    );
    expect((await Promise.all(takes)).filter((result) => result !== null)).toEqual([value]);
    expect(await providers[0]!.get(tenant, 'race/ticket')).toBeNull();
    expect((await providers[0]!.list(tenant, 'race/', { limit: 10 })).items).toEqual([]);
  }
}

export async function expectOneDeleteWinner(providers: readonly StorageProvider[], tenant: string) {
  await providers[0]!.set(tenant, 'race/gone', '1');
  const deletes = Array.from({ length: CALLERS }, (_, index) =>
    providers[index % providers.length]!.delete(tenant, 'race/gone'),
  );
  expect((await Promise.all(deletes)).filter(Boolean)).toHaveLength(1);
}
