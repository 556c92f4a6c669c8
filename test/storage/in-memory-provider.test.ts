// Runs the provider compliance suite against the in-memory provider, plus its periodic sweep: records written with
// a TTL and never read again (an unanswered consent round's) are freed by the timer, driven here by fake timers and
// the injected clock instead of waiting.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InMemoryStorageProvider } from '../../src/storage/index.js';
import { runStorageProviderCompliance } from './provider-compliance.js';
import { makeInMemoryProvider, manualClock } from './storage-test-helpers.js';

// Entries are held as written, so nothing can make one corrupt.
runStorageProviderCompliance('InMemoryStorageProvider', makeInMemoryProvider, {
  quota: true,
  sweep: true,
  corruptEntries: false,
});

describe('InMemoryStorageProvider periodic sweep', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('frees unanswered consent records on its own, at the configured interval', async () => {
    const clock = manualClock();
    const provider = new InMemoryStorageProvider({ now: clock.now, sweepIntervalMs: 5000, maxEntriesPerTenant: 10 });
    const sweep = vi.spyOn(provider, 'sweepExpired');
    await provider.set('t', 'kept', '1');
    for (let round = 0; round < 9; round++) await provider.set('t', `consent/${round}`, '{}', { ttlSeconds: 600 });
    clock.advanceSeconds(600);

    await vi.advanceTimersByTimeAsync(4999);
    expect(sweep).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(sweep).toHaveBeenCalledTimes(1);
    expect(await sweep.mock.results[0]?.value).toBe(9);
    expect((await provider.list('t', '', { limit: 100 })).items).toEqual([{ key: 'kept', value: '1' }]);
    await provider.close();
  });

  it('starts no timer until an entry with a TTL is written', async () => {
    const provider = new InMemoryStorageProvider({ now: manualClock().now, sweepIntervalMs: 1000 });
    const sweep = vi.spyOn(provider, 'sweepExpired');
    await provider.set('t', 'plain', '1');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sweep).not.toHaveBeenCalled();
    await provider.set('t', 'short', '1', { ttlSeconds: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sweep).toHaveBeenCalledTimes(1);
    await provider.close();
  });

  it('stops sweeping on close, and never sweeps with an interval of 0', async () => {
    const provider = new InMemoryStorageProvider({ now: manualClock().now, sweepIntervalMs: 1000 });
    const sweep = vi.spyOn(provider, 'sweepExpired');
    await provider.set('t', 'k', '1', { ttlSeconds: 60 });
    await provider.close();
    const off = new InMemoryStorageProvider({ now: manualClock().now, sweepIntervalMs: 0 });
    const offSweep = vi.spyOn(off, 'sweepExpired');
    await off.set('t', 'k', '1', { ttlSeconds: 60 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sweep).not.toHaveBeenCalled();
    expect(offSweep).not.toHaveBeenCalled();
    await off.close();
  });

  it('uses the default interval and quota when none are given', async () => {
    const provider = new InMemoryStorageProvider({ now: manualClock().now });
    const sweep = vi.spyOn(provider, 'sweepExpired');
    await provider.set('t', 'k', '1', { ttlSeconds: 1 });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(sweep).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(sweep).toHaveBeenCalledTimes(1);
    await provider.close();
  });
});
