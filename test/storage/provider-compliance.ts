// The behaviour every StorageProvider must show, as one suite each provider's test file runs against itself.
// A provider is built with the suite's manual clock, so TTL cases need no real waiting.
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import type { StorageProvider } from '../../src/storage/index.js';
import {
  captureLogger,
  expectMcpError,
  type MakeProvider,
  type ManualClock,
  manualClock,
  type ProviderUnderTest,
} from './storage-test-helpers.js';

const T = 'tenant-a';

/**
 * The parts of the contract a provider takes part in beyond the basics. Each is a deliberate choice: the cases of
 * a part left out still appear in the run, as skipped.
 */
export interface ComplianceOptions {
  /** The provider honours `maxEntriesPerTenant` from MakeProviderOptions and refuses with `state_quota_exceeded`. */
  quota?: boolean;
  /** The provider implements `sweepExpired()` (a backend with native expiry may leave it out). */
  sweep?: boolean;
  /** The provider's entries can be corrupt, and its factory supplies `corruptEntry` to damage one. */
  corruptEntries?: boolean;
}

/** The small limit the quota cases build their provider with. */
const QUOTA = 3;

async function keysOf(provider: StorageProvider, tenantId = T): Promise<string[]> {
  return (await provider.list(tenantId, '', { limit: 100 })).items.map((item) => item.key);
}

export function runStorageProviderCompliance(
  name: string,
  makeProvider: MakeProvider,
  options: ComplianceOptions = {},
): void {
  describe(`${name} (StorageProvider compliance)`, () => {
    let clock: ManualClock;
    let subject: ProviderUnderTest;
    let provider: StorageProvider;

    beforeEach(async () => {
      clock = manualClock();
      subject = await makeProvider({ now: clock.now });
      provider = subject.provider;
    });

    afterEach(async () => {
      await subject.cleanup();
    });

    describe('get / set', () => {
      it('resolves null for a key never written', async () => {
        expect(await provider.get(T, 'missing')).toBeNull();
      });

      it('returns the stored string exactly as written', async () => {
        await provider.set(T, 'item/1', '{"a":[1,2],"b":"x"}');
        await provider.set(T, 'item/2', '"just a string"');
        expect(await provider.get(T, 'item/1')).toBe('{"a":[1,2],"b":"x"}');
        expect(await provider.get(T, 'item/2')).toBe('"just a string"');
      });

      it('replaces the value on a second set', async () => {
        await provider.set(T, 'k', '1');
        await provider.set(T, 'k', '2');
        expect(await provider.get(T, 'k')).toBe('2');
      });

      it('round-trips keys at the maximum length and with nested slashes', async () => {
        const longKey = `deep/${'x'.repeat(1019)}`;
        await provider.set(T, longKey, '"long"');
        await provider.set(T, 'a/b/c.d-e_f', '"nested"');
        expect(longKey).toHaveLength(1024);
        expect(await provider.get(T, longKey)).toBe('"long"');
        expect(await provider.get(T, 'a/b/c.d-e_f')).toBe('"nested"');
        expect(await provider.get(T, `deep/${'x'.repeat(1018)}`)).toBeNull();
      });

      it('keeps path-like and unusual keys as opaque, distinct names', async () => {
        const keys = ['../escape', '/absolute', 'a\\b', 'colon:key', 'ü/ä', '.', ''];
        for (const [index, key] of keys.entries()) await provider.set(T, key, String(index));
        for (const [index, key] of keys.entries()) expect(await provider.get(T, key)).toBe(String(index));
        const page = await provider.list(T, '', { limit: 100 });
        expect(page.items.map((item) => item.key)).toEqual([...keys].sort());
      });
    });

    describe('setIfAbsent', () => {
      it('stores only when the key holds no live entry, and says which', async () => {
        const setIfAbsent = provider.setIfAbsent?.bind(provider);
        expect(setIfAbsent).toBeDefined();
        if (!setIfAbsent) return;
        expect(await setIfAbsent(T, 'claim', '"first"')).toBe(true);
        expect(await setIfAbsent(T, 'claim', '"second"')).toBe(false);
        expect(await provider.get(T, 'claim')).toBe('"first"');
        expect(await keysOf(provider)).toEqual(['claim']);
      });

      it('treats an expired entry as absent, and gives the new one its own TTL', async () => {
        const setIfAbsent = provider.setIfAbsent?.bind(provider) as NonNullable<StorageProvider['setIfAbsent']>;
        await provider.set(T, 'lease', '"old"', { ttlSeconds: 5 });
        expect(await setIfAbsent(T, 'lease', '"new"', { ttlSeconds: 10 })).toBe(false);
        clock.advanceSeconds(5);
        expect(await setIfAbsent(T, 'lease', '"new"', { ttlSeconds: 10 })).toBe(true);
        expect(await provider.get(T, 'lease')).toBe('"new"');
        clock.advanceSeconds(9.999);
        expect(await provider.get(T, 'lease')).toBe('"new"');
        clock.advanceSeconds(0.001);
        expect(await provider.get(T, 'lease')).toBeNull();
      });

      it('lets exactly one of 20 concurrent calls store', async () => {
        const setIfAbsent = provider.setIfAbsent?.bind(provider) as NonNullable<StorageProvider['setIfAbsent']>;
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, index) => setIfAbsent(T, 'race', JSON.stringify(index))),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await provider.get(T, 'race')).toBe(JSON.stringify(results.indexOf(true)));
      });

      it('keeps tenants apart', async () => {
        const setIfAbsent = provider.setIfAbsent?.bind(provider) as NonNullable<StorageProvider['setIfAbsent']>;
        expect(await setIfAbsent('tenant-a', 'same', '"a"')).toBe(true);
        expect(await setIfAbsent('tenant-b', 'same', '"b"')).toBe(true);
        expect(await provider.get('tenant-b', 'same')).toBe('"b"');
      });
    });

    describe('call-policy counters', () => {
      const rule = { limit: 4, windowMs: 60_000 };

      it('admits a rate limit of calls at once, then refuses until one has refilled', async () => {
        const claimRate = provider.claimRate?.bind(provider);
        expect(claimRate).toBeDefined();
        if (!claimRate) return;
        const first = await claimRate(T, 'rate', rule);
        expect(first).toEqual({ allowed: true, remaining: 3, retryAfterMs: 0 });
        for (let call = 2; call <= 4; call++) expect((await claimRate(T, 'rate', rule)).allowed).toBe(true);
        const refused = await claimRate(T, 'rate', rule);
        expect(refused.allowed).toBe(false);
        expect(refused.remaining).toBe(0);
        // One call refills every windowMs / limit.
        expect(refused.retryAfterMs).toBe(15_000);
        clock.advanceSeconds(15);
        expect(await claimRate(T, 'rate', rule)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
        expect((await claimRate(T, 'rate', rule)).allowed).toBe(false);
        // A whole quiet window refills the burst.
        clock.advanceSeconds(60);
        expect((await claimRate(T, 'rate', rule)).remaining).toBe(3);
      });

      it('admits exactly the limit of 32 concurrent claims, per tenant and key', async () => {
        const claimRate = provider.claimRate?.bind(provider) as NonNullable<StorageProvider['claimRate']>;
        const burst = { limit: 10, windowMs: 60_000 };
        const decisions = await Promise.all(Array.from({ length: 32 }, () => claimRate(T, 'burst', burst)));
        expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
        expect((await claimRate('tenant-b', 'burst', burst)).allowed).toBe(true);
        expect((await claimRate(T, 'other', burst)).allowed).toBe(true);
      });

      it('adds to counter fields, refuses past a cap without changing anything, and reads them back', async () => {
        const addCounter = provider.addCounter?.bind(provider) as NonNullable<StorageProvider['addCounter']>;
        const readCounters = provider.readCounters?.bind(provider) as NonNullable<StorageProvider['readCounters']>;
        expect(addCounter).toBeDefined();
        const ttlMs = 86_400_000;
        expect(await addCounter(T, 'usage', { deltas: { calls: 1, durationMs: 12.5 }, ttlMs })).toEqual({
          applied: true,
          values: { calls: 1, durationMs: 12.5 },
        });
        await addCounter(T, 'usage', { deltas: { calls: 1, errors: 1, durationMs: 2 }, ttlMs });
        const capped = { deltas: { calls: 1 }, ttlMs, cap: { field: 'calls', limit: 2 } };
        expect(await addCounter(T, 'usage', capped)).toEqual({
          applied: false,
          values: { calls: 2, errors: 1, durationMs: 14.5 },
        });
        const read = await readCounters(T, ['usage', 'never']);
        expect([...read]).toEqual([['usage', { calls: 2, errors: 1, durationMs: 14.5 }]]);
        expect((await readCounters('tenant-b', ['usage'])).size).toBe(0);
        // Counters are not entries: never listed, never counted against the tenant's entries.
        expect(await keysOf(provider)).toEqual([]);
      });

      it('applies exactly the cap of 20 concurrent capped adds', async () => {
        const addCounter = provider.addCounter?.bind(provider) as NonNullable<StorageProvider['addCounter']>;
        const add = { deltas: { calls: 1 }, ttlMs: 60_000, cap: { field: 'calls', limit: 5 } };
        const readings = await Promise.all(Array.from({ length: 20 }, () => addCounter(T, 'quota', add)));
        expect(readings.filter((reading) => reading.applied)).toHaveLength(5);
        const read = await provider.readCounters?.(T, ['quota']);
        expect(read?.get('quota')).toEqual({ calls: 5 });
      });
    });

    describe('delete / take', () => {
      it('delete resolves true for a live entry, then false, and the entry is gone', async () => {
        await provider.set(T, 'k', '1');
        expect(await provider.delete(T, 'k')).toBe(true);
        expect(await provider.get(T, 'k')).toBeNull();
        expect(await provider.delete(T, 'k')).toBe(false);
      });

      it('delete of a key never written resolves false', async () => {
        expect(await provider.delete(T, 'never')).toBe(false);
      });

      it('take returns the value once, then null, and removes the entry', async () => {
        await provider.set(T, 'once', '"v"');
        expect(await provider.take(T, 'once')).toBe('"v"');
        expect(await provider.take(T, 'once')).toBeNull();
        expect(await provider.get(T, 'once')).toBeNull();
      });

      it('take of a key never written resolves null', async () => {
        expect(await provider.take(T, 'never')).toBeNull();
      });

      it('gives the value to exactly one of 20 concurrent takes', async () => {
        await provider.set(T, 'ticket', '"winner"');
        const results = await Promise.all(Array.from({ length: 20 }, () => provider.take(T, 'ticket')));
        expect(results.filter((value) => value !== null)).toEqual(['"winner"']);
        expect(await provider.get(T, 'ticket')).toBeNull();
      });

      it('reports true to exactly one of 20 concurrent deletes', async () => {
        await provider.set(T, 'gone', '1');
        const results = await Promise.all(Array.from({ length: 20 }, () => provider.delete(T, 'gone')));
        expect(results.filter(Boolean)).toHaveLength(1);
      });
    });

    describe('batch calls', () => {
      it('getMany returns only the keys present', async () => {
        await provider.set(T, 'a', '1');
        await provider.set(T, 'c', '3');
        const found = await provider.getMany(T, ['a', 'b', 'c', 'a']);
        expect(found).toEqual(
          new Map([
            ['a', '1'],
            ['c', '3'],
          ]),
        );
        expect(await provider.getMany(T, [])).toEqual(new Map());
      });

      it('setMany writes every entry', async () => {
        await provider.setMany(
          T,
          new Map([
            ['m/1', '1'],
            ['m/2', '2'],
          ]),
        );
        expect(await provider.get(T, 'm/1')).toBe('1');
        expect(await provider.get(T, 'm/2')).toBe('2');
      });

      it('deleteMany counts only live entries it removed', async () => {
        await provider.setMany(
          T,
          new Map([
            ['d/1', '1'],
            ['d/2', '2'],
            ['d/3', '3'],
          ]),
        );
        expect(await provider.deleteMany(T, ['d/1', 'd/2', 'd/2', 'd/missing'])).toBe(2);
        expect(await provider.get(T, 'd/1')).toBeNull();
        expect(await provider.get(T, 'd/3')).toBe('3');
        expect(await provider.deleteMany(T, [])).toBe(0);
      });
    });

    describe('list', () => {
      beforeEach(async () => {
        for (const key of ['b/2', 'a/3', 'b/1', 'a', 'ab', 'a/1', 'a/2', 'c']) await provider.set(T, key, `"${key}"`);
      });

      it('returns entries sorted by key with their values', async () => {
        const page = await provider.list(T, '', { limit: 100 });
        expect(page.items.map((item) => item.key)).toEqual(['a', 'a/1', 'a/2', 'a/3', 'ab', 'b/1', 'b/2', 'c']);
        expect(page.items[1]).toEqual({ key: 'a/1', value: '"a/1"' });
        expect(page.hasMore).toBe(false);
      });

      it('keeps only keys starting with the prefix', async () => {
        const page = await provider.list(T, 'a/', { limit: 100 });
        expect(page.items.map((item) => item.key)).toEqual(['a/1', 'a/2', 'a/3']);
        expect((await provider.list(T, 'zzz', { limit: 100 })).items).toEqual([]);
      });

      it('returns only keys strictly greater than `after`', async () => {
        const page = await provider.list(T, 'a/', { after: 'a/1', limit: 100 });
        expect(page.items.map((item) => item.key)).toEqual(['a/2', 'a/3']);
        const between = await provider.list(T, '', { after: 'a/25', limit: 100 });
        expect(between.items.map((item) => item.key)).toEqual(['a/3', 'ab', 'b/1', 'b/2', 'c']);
      });

      it('honours the limit and reports hasMore, exactly at the boundary too', async () => {
        const first = await provider.list(T, '', { limit: 3 });
        expect(first.items.map((item) => item.key)).toEqual(['a', 'a/1', 'a/2']);
        expect(first.hasMore).toBe(true);
        const exact = await provider.list(T, 'a/', { limit: 3 });
        expect(exact.items).toHaveLength(3);
        expect(exact.hasMore).toBe(false);
      });

      it('walks every entry once when paging with `after`', async () => {
        const seen: string[] = [];
        let after: string | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await provider.list(T, '', { limit: 3, ...(after === undefined ? {} : { after }) });
          seen.push(...page.items.map((item) => item.key));
          after = page.items.at(-1)?.key;
          if (!page.hasMore) break;
        }
        expect(seen).toEqual(['a', 'a/1', 'a/2', 'a/3', 'ab', 'b/1', 'b/2', 'c']);
      });

      it('orders and filters long keys the same as short ones', async () => {
        const keys = [
          `long/${'a'.repeat(300)}`,
          `long/${'a'.repeat(99)}b`,
          `long/${'a'.repeat(150)}`,
          'long/b',
          'long/',
        ];
        for (const key of keys) await provider.set(T, key, '1');
        const page = await provider.list(T, 'long/', { limit: 100 });
        expect(page.items.map((item) => item.key)).toEqual([...keys].sort());
        const longPrefix = `long/${'a'.repeat(120)}`;
        const narrowed = await provider.list(T, longPrefix, { limit: 100 });
        expect(narrowed.items.map((item) => item.key)).toEqual([`long/${'a'.repeat(150)}`, `long/${'a'.repeat(300)}`]);
      });
    });

    describe('TTL', () => {
      it('keeps an entry until its TTL elapses, then hides it from every call', async () => {
        await provider.set(T, 'ttl/a', '1', { ttlSeconds: 10 });
        await provider.set(T, 'ttl/b', '2', { ttlSeconds: 10 });
        await provider.set(T, 'ttl/c', '3', { ttlSeconds: 10 });
        await provider.set(T, 'ttl/keep', '4');
        clock.advanceSeconds(9.999);
        expect(await provider.get(T, 'ttl/a')).toBe('1');

        clock.advanceSeconds(0.001);
        expect(await provider.get(T, 'ttl/a')).toBeNull();
        expect(await provider.getMany(T, ['ttl/a', 'ttl/b', 'ttl/keep'])).toEqual(new Map([['ttl/keep', '4']]));
        const page = await provider.list(T, 'ttl/', { limit: 1 });
        expect(page).toEqual({ items: [{ key: 'ttl/keep', value: '4' }], hasMore: false });
        expect(await provider.take(T, 'ttl/b')).toBeNull();
        expect(await provider.delete(T, 'ttl/c')).toBe(false);
        expect(await provider.deleteMany(T, ['ttl/a', 'ttl/b', 'ttl/c'])).toBe(0);
      });

      it('applies a setMany TTL to every entry of the batch', async () => {
        await provider.setMany(
          T,
          new Map([
            ['s/1', '1'],
            ['s/2', '2'],
          ]),
          { ttlSeconds: 5 },
        );
        expect((await provider.getMany(T, ['s/1', 's/2'])).size).toBe(2);
        clock.advanceSeconds(5);
        expect((await provider.getMany(T, ['s/1', 's/2'])).size).toBe(0);
      });

      it('drops the expiry when an entry is overwritten without a TTL', async () => {
        await provider.set(T, 'renew', '1', { ttlSeconds: 1 });
        await provider.set(T, 'renew', '2');
        clock.advanceSeconds(3600);
        expect(await provider.get(T, 'renew')).toBe('2');
      });

      it('a write after expiry makes the key live again', async () => {
        await provider.set(T, 'again', '1', { ttlSeconds: 1 });
        clock.advanceSeconds(2);
        await provider.set(T, 'again', '2', { ttlSeconds: 1 });
        expect(await provider.take(T, 'again')).toBe('2');
      });

      it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])(
        'rejects ttlSeconds %s and writes nothing',
        async (ttl) => {
          await expectMcpError(provider.set(T, 'bad-ttl', '1', { ttlSeconds: ttl }), JsonRpcErrorCode.ValidationError);
          await expectMcpError(
            provider.setMany(T, new Map([['bad-ttl', '1']]), { ttlSeconds: ttl }),
            JsonRpcErrorCode.ValidationError,
          );
          expect(await provider.get(T, 'bad-ttl')).toBeNull();
        },
      );
    });

    describe('tenant isolation', () => {
      it('keeps one key separate per tenant for every call', async () => {
        await provider.set('tenant-a', 'shared/k', '"A"');
        await provider.set('tenant-b', 'shared/k', '"B"');
        await provider.set('tenant-a', 'only-a', '"A only"');

        expect(await provider.get('tenant-b', 'shared/k')).toBe('"B"');
        expect(await provider.get('tenant-b', 'only-a')).toBeNull();
        expect(await provider.getMany('tenant-b', ['only-a'])).toEqual(new Map());
        expect((await provider.list('tenant-b', '', { limit: 100 })).items).toEqual([
          { key: 'shared/k', value: '"B"' },
        ]);
        expect(await provider.take('tenant-b', 'only-a')).toBeNull();
        expect(await provider.delete('tenant-b', 'only-a')).toBe(false);
        expect(await provider.deleteMany('tenant-b', ['only-a'])).toBe(0);

        expect(await provider.take('tenant-a', 'shared/k')).toBe('"A"');
        expect(await provider.get('tenant-b', 'shared/k')).toBe('"B"');
        expect(await provider.get('tenant-a', 'only-a')).toBe('"A only"');
      });

      it('isolates tenant ids that look like paths or prefixes of each other', async () => {
        const tenants = ['t', 't/1', '../t', 't1', 'T', 'x'.repeat(300), `${'x'.repeat(300)}y`];
        for (const tenant of tenants) await provider.set(tenant, 'k', JSON.stringify(tenant));
        for (const tenant of tenants) {
          expect(await provider.get(tenant, 'k')).toBe(JSON.stringify(tenant));
          expect((await provider.list(tenant, '', { limit: 10 })).items).toHaveLength(1);
        }
      });
    });

    describe('close', () => {
      it('rejects calls made after close with a StorageError', async () => {
        await provider.set(T, 'k', '1');
        await provider.close();
        await expectMcpError(provider.get(T, 'k'), JsonRpcErrorCode.StorageError, /closed/);
        await expectMcpError(provider.set(T, 'k', '2'), JsonRpcErrorCode.StorageError);
        await expectMcpError(provider.take(T, 'k'), JsonRpcErrorCode.StorageError);
        await expectMcpError(provider.list(T, '', { limit: 1 }), JsonRpcErrorCode.StorageError);
      });
    });

    // A provider that cannot have this property (no corrupt entries in memory) opts out; nothing is skipped.
    if (options.quota)
      describe('entry quota per tenant', () => {
        /** A provider built with the small limit, holding three entries already; removed when the test ends. */
        async function fullStore(): Promise<StorageProvider> {
          const limited = await makeProvider({ now: clock.now, maxEntriesPerTenant: QUOTA });
          onTestFinished(() => limited.cleanup());
          for (const key of ['q/a', 'q/b', 'q/c']) await limited.provider.set(T, key, `"${key}"`);
          return limited.provider;
        }

        it('refuses a new key once the tenant holds the limit, names the limit, and writes nothing', async () => {
          const store = await fullStore();
          const error = await expectMcpError(store.set(T, 'q/d', '1'), JsonRpcErrorCode.StorageError, /"q\/d"/);
          expect(error.data).toMatchObject({ reason: 'state_quota_exceeded', limit: QUOTA });
          expect(error.data?.recovery?.hint).toMatch(/ttl/);
          expect(await store.get(T, 'q/d')).toBeNull();
          expect(await keysOf(store)).toEqual(['q/a', 'q/b', 'q/c']);
        });

        it('still overwrites existing keys at the limit, by set and by setMany', async () => {
          const store = await fullStore();
          await store.set(T, 'q/a', '"new a"', { ttlSeconds: 60 });
          await store.setMany(
            T,
            new Map([
              ['q/b', '"new b"'],
              ['q/c', '"new c"'],
            ]),
          );
          expect(await store.getMany(T, ['q/a', 'q/b', 'q/c'])).toEqual(
            new Map([
              ['q/a', '"new a"'],
              ['q/b', '"new b"'],
              ['q/c', '"new c"'],
            ]),
          );
        });

        it('refuses a setMany whose new keys would pass the limit, writing none of the batch', async () => {
          const store = await fullStore();
          await store.delete(T, 'q/c');
          const batch = new Map([
            ['q/a', '"overwrite"'],
            ['q/x', '1'],
            ['q/y', '2'],
          ]);
          const error = await expectMcpError(store.setMany(T, batch), JsonRpcErrorCode.StorageError);
          expect(error.data).toMatchObject({ reason: 'state_quota_exceeded', limit: QUOTA });
          expect(await store.get(T, 'q/a')).toBe('"q/a"');
          expect(await keysOf(store)).toEqual(['q/a', 'q/b']);
          batch.delete('q/y');
          await store.setMany(T, batch);
          expect(await keysOf(store)).toEqual(['q/a', 'q/b', 'q/x']);
        });

        it('frees a slot when an entry is deleted, taken or deleted in a batch', async () => {
          const store = await fullStore();
          await store.delete(T, 'q/a');
          await store.set(T, 'q/d', '1');
          await store.take(T, 'q/b');
          await store.set(T, 'q/e', '1');
          await store.deleteMany(T, ['q/c', 'q/d']);
          await store.setMany(
            T,
            new Map([
              ['q/f', '1'],
              ['q/g', '1'],
            ]),
          );
          expect(await keysOf(store)).toEqual(['q/e', 'q/f', 'q/g']);
        });

        it('does not count expired entries, even ones nobody has read since they expired', async () => {
          const store = await fullStore();
          await store.deleteMany(T, ['q/a', 'q/b', 'q/c']);
          for (const key of ['t/1', 't/2', 't/3']) await store.set(T, key, '1', { ttlSeconds: 10 });
          await expectMcpError(store.set(T, 'q/new', '1'), JsonRpcErrorCode.StorageError);
          clock.advanceSeconds(10);
          await store.set(T, 'q/new', '1');
          await store.setMany(
            T,
            new Map([
              ['q/x', '1'],
              ['q/y', '1'],
            ]),
          );
          expect(await keysOf(store)).toEqual(['q/new', 'q/x', 'q/y']);
        });

        it('counts each tenant on its own', async () => {
          const store = await fullStore();
          for (const key of ['1', '2', '3']) await store.set('tenant-b', key, '1');
          await expectMcpError(store.set('tenant-b', '4', '1'), JsonRpcErrorCode.StorageError);
          expect(await keysOf(store, 'tenant-b')).toEqual(['1', '2', '3']);
        });
      });

    // A provider that cannot have this property (no corrupt entries in memory) opts out; nothing is skipped.
    if (options.sweep)
      describe('sweepExpired', () => {
        function sweep(): Promise<number> {
          if (!provider.sweepExpired) throw new Error(`${name} opted into the sweep cases without sweepExpired()`);
          return provider.sweepExpired();
        }

        it('removes expired entries nobody read, and leaves every live one', async () => {
          await provider.set(T, 'gone/1', '1', { ttlSeconds: 5 });
          await provider.set('tenant-b', 'gone/2', '2', { ttlSeconds: 5 });
          await provider.set(T, 'later', '"later"', { ttlSeconds: 60 });
          await provider.set(T, 'forever', '"forever"');
          clock.advanceSeconds(5);
          expect(await sweep()).toBe(2);
          expect(await sweep()).toBe(0);
          expect(await provider.get(T, 'later')).toBe('"later"');
          expect(await provider.get(T, 'forever')).toBe('"forever"');
          expect(await keysOf(provider)).toEqual(['forever', 'later']);
        });

        it('removes nothing before the expiry instant', async () => {
          await provider.set(T, 'soon', '1', { ttlSeconds: 5 });
          clock.advanceSeconds(4.999);
          expect(await sweep()).toBe(0);
          expect(await provider.get(T, 'soon')).toBe('1');
        });

        it('resolves 0 on an empty store and rejects after close', async () => {
          expect(await sweep()).toBe(0);
          await provider.close();
          await expectMcpError(sweep(), JsonRpcErrorCode.StorageError, /closed/);
        });
      });

    // A provider that cannot have this property (no corrupt entries in memory) opts out; nothing is skipped.
    if (options.corruptEntries)
      describe('corrupt entries', () => {
        /** A provider holding a, b and c, with b damaged in place; removed when the test ends. */
        async function damagedStore() {
          const log = captureLogger();
          const damaged = await makeProvider({ now: clock.now, logger: log.logger });
          onTestFinished(() => damaged.cleanup());
          const { corruptEntry } = damaged;
          if (!corruptEntry) throw new Error(`${name} opted into the corrupt-entry cases without corruptEntry`);
          for (const key of ['a', 'b', 'c']) await damaged.provider.set(T, key, `"${key}"`);
          await corruptEntry(T, 'b');
          return { store: damaged.provider, log, corruptEntry };
        }

        it('list skips a corrupt entry, pages past it, and logs one warning naming it per call', async () => {
          const { store, log } = await damagedStore();
          expect(await store.list(T, '', { limit: 10 })).toEqual({
            items: [
              { key: 'a', value: '"a"' },
              { key: 'c', value: '"c"' },
            ],
            hasMore: false,
          });
          expect(await store.list(T, '', { limit: 1 })).toEqual({ items: [{ key: 'a', value: '"a"' }], hasMore: true });
          expect(await store.list(T, '', { limit: 1, after: 'a' })).toEqual({
            items: [{ key: 'c', value: '"c"' }],
            hasMore: false,
          });
          const warnings = log.lines.filter((line) => line.level === 'warning');
          expect(warnings).toHaveLength(3);
          for (const warning of warnings) expect(warning).toMatchObject({ tenantId: T, key: 'b' });
        });

        it('get and getMany reject storage_corrupt naming the key', async () => {
          const { store } = await damagedStore();
          const error = await expectMcpError(store.get(T, 'b'), JsonRpcErrorCode.StorageError, /"b".*corrupt/);
          expect(error.data).toMatchObject({ reason: 'storage_corrupt', key: 'b' });
          await expectMcpError(store.getMany(T, ['a', 'b']), JsonRpcErrorCode.StorageError, /"b"/);
          expect(await store.get(T, 'a')).toBe('"a"');
        });

        it('take rejects storage_corrupt and consumes the entry', async () => {
          const { store } = await damagedStore();
          const error = await expectMcpError(store.take(T, 'b'), JsonRpcErrorCode.StorageError);
          expect(error.data).toMatchObject({ reason: 'storage_corrupt', key: 'b' });
          expect(await store.get(T, 'b')).toBeNull();
        });

        it('delete and deleteMany remove a corrupt entry and count it', async () => {
          const { store, corruptEntry } = await damagedStore();
          expect(await store.delete(T, 'b')).toBe(true);
          expect(await store.get(T, 'b')).toBeNull();
          await corruptEntry(T, 'c');
          expect(await store.deleteMany(T, ['a', 'c'])).toBe(2);
          expect(await keysOf(store)).toEqual([]);
        });
      });
  });
}
