// The behaviour every StorageProvider must show, as one suite each provider's test file runs against itself.
// A provider is built with the suite's manual clock, so TTL cases need no real waiting.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonRpcErrorCode } from '../../src/errors/index.js';
import type { StorageProvider } from '../../src/storage/index.js';
import {
  expectMcpError,
  type MakeProvider,
  type ManualClock,
  manualClock,
  type ProviderUnderTest,
} from './storage-test-helpers.js';

const T = 'tenant-a';

export function runStorageProviderCompliance(name: string, makeProvider: MakeProvider): void {
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
  });
}
