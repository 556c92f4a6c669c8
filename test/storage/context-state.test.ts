// `ctx.state` rules other than listing, checked on every built-in provider: key rules, the JSON round trip,
// serialization errors, TTL, tenant isolation, failing closed without a tenant, schema reads and atomic take.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { type ContextState, StorageService } from '../../src/storage/index.js';
import {
  expectMcpError,
  type ManualClock,
  manualClock,
  type ProviderUnderTest,
  providerFactories,
} from './storage-test-helpers.js';

const { ValidationError, SerializationError, InvalidRequest } = JsonRpcErrorCode;

describe.each(providerFactories)('ContextState on the %s provider', (_name, makeProvider) => {
  let clock: ManualClock;
  let subject: ProviderUnderTest;
  let service: StorageService;
  let state: ContextState;
  let otherTenant: ContextState;

  beforeEach(async () => {
    clock = manualClock();
    subject = await makeProvider({ now: clock.now });
    service = new StorageService(subject.provider);
    state = service.forTenant('tenant-a');
    otherTenant = service.forTenant('tenant-b');
  });

  afterEach(async () => {
    await subject.cleanup();
  });

  describe('key rules', () => {
    it('accepts letters, digits, _ . - / up to 1024 characters', async () => {
      const keys = ['item/123', 'A.b-c_d/E9', '.hidden', 'x'.repeat(1024)];
      for (const key of keys) await state.set(key, key.length);
      for (const key of keys) expect(await state.get(key)).toBe(key.length);
    });

    it('rejects a colon on every call with a message naming the key and the rule', async () => {
      const message = 'Invalid state key "item:123": use only letters, digits, _ . - / (a colon is not allowed)';
      const calls: Array<Promise<unknown>> = [
        state.get('item:123'),
        state.set('item:123', 1),
        state.delete('item:123'),
        state.take('item:123'),
        state.getMany(['item:123']),
        state.setMany(new Map([['item:123', 1]])),
        state.deleteMany(['item:123']),
      ];
      for (const call of calls) {
        const error = await expectMcpError(call, ValidationError);
        expect(error.message).toBe(message);
      }
    });

    it.each([
      ['', /Invalid state key "": a key must be 1-1024 characters long/],
      ['x'.repeat(1025), /1025 characters is over the 1024-character limit/],
      ['a/../b', /".." is not allowed/],
      ['a..b', /".." is not allowed/],
      ['..', /".." is not allowed/],
      ['has space', /a space is not allowed/],
      ['caf\u00e9', /the character U\+00E9 is not allowed/],
      ['a@b', /the character "@" is not allowed/],
    ])('rejects the key %j', async (key, message) => {
      await expectMcpError(state.set(key, 1), ValidationError, message);
      await expectMcpError(state.get(key), ValidationError, message);
    });

    it('rejects a key that is not a string', async () => {
      await expectMcpError(state.get(42 as unknown as string), ValidationError, /expected a string, got number/);
    });

    it('applies the rule to list prefixes, allowing only the empty prefix beyond it', async () => {
      await expectMcpError(state.list('item:'), ValidationError, /^Invalid state list prefix "item:": .*a colon/);
      await expectMcpError(state.list('a/..'), ValidationError, /".." is not allowed/);
      await expectMcpError(state.list('p'.repeat(1025)), ValidationError, /1024-character limit/);
      await state.set('k', 1);
      expect((await state.list('')).items).toEqual([{ key: 'k', value: 1 }]);
    });

    it('checks every key of a batch before touching the store', async () => {
      await state.set('ok', 'kept');
      await expectMcpError(state.getMany(['ok', 'bad key']), ValidationError, /"bad key"/);
      await expectMcpError(state.deleteMany(['ok', 'bad:key']), ValidationError, /"bad:key"/);
      await expectMcpError(
        state.setMany(
          new Map<string, unknown>([
            ['new/1', 1],
            ['ok', 'replaced'],
            ['bad/../key', 3],
          ]),
        ),
        ValidationError,
      );
      expect(await state.get('ok')).toBe('kept');
      expect(await state.get('new/1')).toBeNull();
    });
  });

  describe('JSON round trip', () => {
    it('returns the JSON form, never the object that was written', async () => {
      const written = { name: 'Widget', tags: ['a'], nested: { n: 1 } };
      await state.set('item', written);
      written.nested.n = 2;
      const first = await state.get<typeof written>('item');
      const second = await state.get<typeof written>('item');
      expect(first).toEqual({ name: 'Widget', tags: ['a'], nested: { n: 1 } });
      expect(first).not.toBe(written);
      expect(first).not.toBe(second);
    });

    it('converts values exactly as JSON.stringify does', async () => {
      const date = new Date('2024-05-06T07:08:09.010Z');
      class Point {
        constructor(
          readonly x: number,
          readonly y: number,
        ) {}
      }
      await state.set('mixed', {
        date,
        map: new Map([['a', 1]]),
        set: new Set([1]),
        dropped: undefined,
        fn: () => 1,
        list: [undefined, () => 1, Number.NaN, Number.POSITIVE_INFINITY],
        point: new Point(1, 2),
        custom: { toJSON: () => 'custom form' },
        boxed: [Object('s'), Object(3), Object(true)],
      });
      expect(await state.get('mixed')).toEqual({
        date: '2024-05-06T07:08:09.010Z',
        map: {},
        set: {},
        list: [null, null, null, null],
        point: { x: 1, y: 2 },
        custom: 'custom form',
        boxed: ['s', 3, true],
      });
      await state.set('date', date);
      expect(await state.get('date')).toBe('2024-05-06T07:08:09.010Z');
    });

    it('round-trips primitives and allows a shared, non-cyclic reference', async () => {
      const shared = { v: 1 };
      await state.setMany(
        new Map<string, unknown>([
          ['s', 'text'],
          ['n', 1.5],
          ['b', false],
          ['dag', { left: shared, right: shared }],
        ]),
      );
      const values = await state.getMany(['s', 'n', 'b', 'dag']);
      expect(values).toEqual(
        new Map<string, unknown>([
          ['s', 'text'],
          ['n', 1.5],
          ['b', false],
          ['dag', { left: { v: 1 }, right: { v: 1 } }],
        ]),
      );
    });

    it('returns the JSON form from getMany, list and take too', async () => {
      const date = new Date('2020-01-01T00:00:00.000Z');
      await state.set('d', { date });
      expect((await state.getMany(['d'])).get('d')).toEqual({ date: '2020-01-01T00:00:00.000Z' });
      expect((await state.list('d')).items).toEqual([{ key: 'd', value: { date: '2020-01-01T00:00:00.000Z' } }]);
      expect(await state.take('d')).toEqual({ date: '2020-01-01T00:00:00.000Z' });
    });
  });

  describe('serialization errors', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;

    it.each([
      ['a bigint', 10n, /value is a bigint/],
      ['a nested bigint', { count: 1n }, /value\.count is a bigint/],
      ['a bigint inside an array', { items: [1, 2n] }, /value\.items\[1\] is a bigint/],
      ['a bigint under an odd key', { 'a-b': { c: 3n } }, /value\["a-b"\]\.c is a bigint/],
      ['a cycle', cyclic, /value\.self is a circular reference/],
      ['top-level undefined', undefined, /value is undefined/],
      ['a function', () => 1, /value is a function/],
      ['a symbol', Symbol('s'), /value is a symbol/],
    ])('rejects %s before anything is written', async (_label, value, message) => {
      await state.set('target', 'old');
      await expectMcpError(state.set('target', value), SerializationError, message);
      await expectMcpError(state.set('fresh', value), SerializationError, message);
      expect(await state.get('target')).toBe('old');
      expect(await state.get('fresh')).toBeNull();
    });

    it('rejects a whole setMany batch when one value cannot be serialized', async () => {
      await state.set('existing', 'old');
      const batch = new Map<string, unknown>([
        ['first', 1],
        ['existing', 'new'],
        ['broken', { deep: { n: 5n } }],
      ]);
      await expectMcpError(state.setMany(batch), SerializationError, /value\.deep\.n is a bigint/);
      expect(await state.getMany(['first', 'existing', 'broken'])).toEqual(new Map([['existing', 'old']]));
    });
  });

  describe('TTL', () => {
    it('hides a value once its ttl (seconds) has elapsed', async () => {
      await state.set('session/xyz', 'token', { ttl: 60 });
      await state.set('session/keep', 'forever');
      clock.advanceSeconds(59.9);
      expect(await state.get('session/xyz')).toBe('token');
      clock.advanceSeconds(0.1);
      expect(await state.get('session/xyz')).toBeNull();
      expect(await state.take('session/xyz')).toBeNull();
      expect((await state.list('session/')).items).toEqual([{ key: 'session/keep', value: 'forever' }]);
    });

    it('applies a setMany ttl to the whole batch', async () => {
      await state.setMany(
        new Map([
          ['a', 1],
          ['b', 2],
        ]),
        { ttl: 5 },
      );
      clock.advanceSeconds(5);
      expect(await state.getMany(['a', 'b'])).toEqual(new Map());
    });

    it.each([0, -5, Number.NaN, '10'])('rejects ttl %j and writes nothing', async (ttl) => {
      await expectMcpError(state.set('k', 1, { ttl: ttl as number }), ValidationError, /Invalid ttl/);
      await expectMcpError(state.setMany(new Map([['k', 1]]), { ttl: ttl as number }), ValidationError, /Invalid ttl/);
      expect(await state.get('k')).toBeNull();
    });
  });

  describe('tenant isolation', () => {
    it("keeps tenant A's data invisible to tenant B for get, getMany, list, take and delete", async () => {
      await state.set('item/1', 'A1');
      await state.set('item/2', 'A2');
      await otherTenant.set('item/2', 'B2');

      expect(await otherTenant.get('item/1')).toBeNull();
      expect(await otherTenant.getMany(['item/1', 'item/2'])).toEqual(new Map([['item/2', 'B2']]));
      expect((await otherTenant.list('item/')).items).toEqual([{ key: 'item/2', value: 'B2' }]);
      expect(await otherTenant.take('item/1')).toBeNull();
      await otherTenant.delete('item/1');
      expect(await otherTenant.deleteMany(['item/1'])).toBe(0);

      expect(await state.get('item/1')).toBe('A1');
      expect((await state.list('item/')).items.map((item) => item.value)).toEqual(['A1', 'A2']);
    });
  });

  describe('without a tenant', () => {
    it.each([undefined, ''])('rejects every call with InvalidRequest for tenant %j', async (tenantId) => {
      const tenantless = service.forTenant(tenantId);
      const calls: Array<Promise<unknown>> = [
        tenantless.get('k'),
        tenantless.get('k', z.string()),
        tenantless.set('k', 1),
        tenantless.delete('k'),
        tenantless.deleteMany(['k']),
        tenantless.getMany(['k']),
        tenantless.setMany(new Map([['k', 1]])),
        tenantless.list(),
        tenantless.take('k'),
      ];
      for (const call of calls) await expectMcpError(call, InvalidRequest, /state needs a tenant/);
      expect(await subject.provider.list('', '', { limit: 10 })).toEqual({ items: [], hasMore: false });
    });
  });

  describe('schema-validated reads', () => {
    const Item = z.object({ name: z.string(), count: z.number().int() });

    it('returns a value that matches the schema', async () => {
      await state.set('item/1', { name: 'Widget', count: 42, extra: true });
      // The annotation pins the inferred type: a schema read must come back as the schema's output type.
      const item: { name: string; count: number } | null = await state.get('item/1', Item);
      expect(item).toEqual({ name: 'Widget', count: 42 });
      expect(await state.get('item/absent', Item)).toBeNull();
    });

    it('throws a ValidationError naming the key when the stored value does not match', async () => {
      await state.set('item/2', { name: 'Widget', count: 'many' });
      await expectMcpError(state.get('item/2', Item), ValidationError, /key "item\/2".*count/);
    });

    it('validates a Date against the stored string form', async () => {
      await state.set('when', new Date('2024-01-02T03:04:05.000Z'));
      expect(await state.get('when', z.iso.datetime())).toBe('2024-01-02T03:04:05.000Z');
      await expectMcpError(state.get('when', z.date()), ValidationError, /"when"/);
    });

    it('returns the output of a transforming schema', async () => {
      await state.set('word', 'kiln');
      const length: number | null = await state.get(
        'word',
        z.string().transform((text) => text.length),
      );
      expect(length).toBe(4);
    });

    it('validates take results, consuming the value either way', async () => {
      await state.set('good', { name: 'a', count: 1 });
      await state.set('bad', { name: 'b' });
      expect(await state.take('good', Item)).toEqual({ name: 'a', count: 1 });
      await expectMcpError(state.take('bad', Item), ValidationError, /"bad"/);
      expect(await state.get('bad')).toBeNull();
    });
  });

  describe('delete, batches and take', () => {
    it('delete removes the value and deleteMany counts what it removed', async () => {
      await state.setMany(
        new Map([
          ['a', 1],
          ['b', 2],
          ['c', 3],
        ]),
      );
      await state.delete('a');
      await state.delete('never-written');
      expect(await state.get('a')).toBeNull();
      expect(await state.deleteMany(['a', 'b', 'c', 'zzz'])).toBe(2);
      expect(await state.getMany(['a', 'b', 'c'])).toEqual(new Map());
    });

    it('take returns the value once, then null', async () => {
      await state.set('code', { otp: '123456' });
      expect(await state.take('code')).toEqual({ otp: '123456' });
      expect(await state.take('code')).toBeNull();
      expect(await state.get('code')).toBeNull();
    });

    it('gives the value to exactly one of 10 concurrent takes', async () => {
      await state.set('once', 'the value');
      const results = await Promise.all(Array.from({ length: 10 }, () => state.take<string>('once')));
      expect(results.filter((value) => value !== null)).toEqual(['the value']);
    });
  });
});
