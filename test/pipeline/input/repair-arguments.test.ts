import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prepareArguments } from '../../../src/pipeline/input/index.js';
import { repairAtIssues } from '../../../src/pipeline/input/repair-arguments.js';
import { compileForTest } from './compile-for-test.js';
import { expectAccepted, expectRejected } from './expect-prepared.js';

const prepare = (schema: z.ZodType, args: unknown, coerce = true) =>
  prepareArguments(compileForTest(schema, { options: { coerce } }), args);

describe('repair: stringified arrays and objects', () => {
  it('parses a stringified array where an array was expected', () => {
    const result = expectAccepted(
      prepare(z.object({ statusFilter: z.array(z.string()) }), { statusFilter: '["RECRUITING"]' }),
    );
    expect(result.value).toEqual({ statusFilter: ['RECRUITING'] });
    expect(result.events.coerced).toEqual(['statusFilter']);
  });

  it('parses a stringified object where an object was expected', () => {
    const schema = z.object({ options: z.object({ depth: z.number() }) });
    expect(expectAccepted(prepare(schema, { options: '{"depth":2}' })).value).toEqual({ options: { depth: 2 } });
  });

  it('parses a stringified object for a discriminated-union field', () => {
    const schema = z.object({
      target: z.discriminatedUnion('type', [
        z.object({ type: z.literal('path'), path: z.string() }),
        z.object({ type: z.literal('url'), url: z.string() }),
      ]),
    });
    const result = expectAccepted(prepare(schema, { target: '{"type":"path","path":"a.md"}' }));
    expect(result.value).toEqual({ target: { type: 'path', path: 'a.md' } });
  });

  it('parses a stringified record, tuple, and a nested field', () => {
    const schema = z.object({
      weights: z.record(z.string(), z.number()),
      pair: z.tuple([z.string(), z.number()]),
      filters: z.object({ status: z.array(z.string()) }),
    });
    const result = expectAccepted(
      prepare(schema, { weights: '{"a":1}', pair: '["x", 2]', filters: { status: ' ["open"]' } }),
    );
    expect(result.value).toEqual({ weights: { a: 1 }, pair: ['x', 2], filters: { status: ['open'] } });
    expect(result.events.coerced).toEqual(['weights', 'pair', 'filters.status']);
  });

  it('parses a stringified array for a union field every branch of which refused a string', () => {
    const schema = z.object({ fields: z.union([z.literal('all'), z.array(z.string())]) });
    expect(expectAccepted(prepare(schema, { fields: '["a","b"]' })).value).toEqual({ fields: ['a', 'b'] });
  });

  it('does not parse JSON of the wrong container kind or a non-JSON string', () => {
    const schema = z.object({ tags: z.array(z.string()) });
    expect(expectRejected(prepare(schema, { tags: '{"a":"b"}' })).issues[0]).toMatchObject({ expected: 'array' });
    expect(expectRejected(prepare(schema, { tags: 'a,b' })).issues[0]).toMatchObject({ expected: 'array' });
    expect(expectRejected(prepare(schema, { tags: '[oops' })).issues[0]).toMatchObject({ expected: 'array' });
  });

  it('leaves a free-text field holding JSON untouched while repairing another field', () => {
    const schema = z.object({ note: z.string(), body: z.string(), tags: z.array(z.string()) });
    const result = expectAccepted(prepare(schema, { note: '[1,2,3]', body: '{"a":1}', tags: '["a"]' }));
    expect(result.value).toEqual({ note: '[1,2,3]', body: '{"a":1}', tags: ['a'] });
    expect(result.events.coerced).toEqual(['tags']);
  });

  it('never repairs a value a repair produced', () => {
    const schema = z.object({ options: z.object({ tags: z.array(z.string()) }) });
    const rejection = expectRejected(prepare(schema, { options: JSON.stringify({ tags: '["a"]' }) }));
    expect(rejection.issues).toEqual([expect.objectContaining({ path: ['options'], expected: 'object' })]);
  });
});

describe('repair: an integer sent for a string', () => {
  it('stringifies a safe integer where a string was expected', () => {
    const result = expectAccepted(prepare(z.object({ station_id: z.string() }), { station_id: 8654467 }));
    expect(result.value).toEqual({ station_id: '8654467' });
    expect(result.events.coerced).toEqual(['station_id']);
  });

  it('repairs array elements at the paths the issues name', () => {
    const result = expectAccepted(prepare(z.object({ ids: z.array(z.string()) }), { ids: ['a', 7, 'c', 9] }));
    expect(result.value).toEqual({ ids: ['a', '7', 'c', '9'] });
    expect(result.events.coerced).toEqual(['ids[1]', 'ids[3]']);
  });

  it('stringifies for a string-only enum', () => {
    expect(expectAccepted(prepare(z.object({ tier: z.enum(['1', '2']) }), { tier: 2 })).value).toEqual({ tier: '2' });
  });

  it('stringifies for a union every branch of which refused the type', () => {
    const schema = z.object({ code: z.union([z.boolean(), z.string()]) });
    expect(expectAccepted(prepare(schema, { code: 42 })).value).toEqual({ code: '42' });
  });

  it('keeps -1 rejected against a positive-int-or-string union', () => {
    const schema = z.object({ limit: z.union([z.number().int().positive(), z.string()]) });
    const rejection = expectRejected(prepare(schema, { limit: -1 }));
    expect(rejection.issues).toEqual([expect.objectContaining({ code: 'too_small', path: ['limit'] })]);
  });

  it('keeps a number inside one branch of a union field as sent', () => {
    const schema = z.object({ ref: z.union([z.object({ id: z.string() }), z.string()]) });
    const rejection = expectRejected(prepare(schema, { ref: { id: 5 } }));
    expect(rejection.issues[0]).toMatchObject({ code: 'invalid_union', path: ['ref'] });
  });

  it('does not stringify for a numeric enum or literal', () => {
    const rejection = expectRejected(prepare(z.object({ v: z.union([z.literal(1), z.literal('2')]) }), { v: 2 }));
    expect(rejection.issues[0]).toMatchObject({ code: 'invalid_union' });
  });

  it.each([
    ['-0', -0],
    ['a fraction', 1.5],
    ['an integer past MAX_SAFE_INTEGER', Number.MAX_SAFE_INTEGER + 1],
  ])('never repairs %s', (_label, value) => {
    const rejection = expectRejected(prepare(z.object({ id: z.string() }), { id: value }));
    expect(rejection.issues).toEqual([expect.objectContaining({ code: 'invalid_type', expected: 'string' })]);
  });

  it('lets the schema judge the repaired string: 20260922 stays rejected by z.iso.date()', () => {
    const rejection = expectRejected(prepare(z.object({ date: z.iso.date() }), { date: 20260922 }));
    // The original rejection, not the repaired value's format issue.
    expect(rejection.issues).toEqual([expect.objectContaining({ code: 'invalid_type', expected: 'string' })]);
  });
});

describe('repair: when it is kept', () => {
  it('returns the original rejection under coerce: false', () => {
    const rejection = expectRejected(prepare(z.object({ tags: z.array(z.string()) }), { tags: '["a"]' }, false));
    expect(rejection.message).toBe(
      'Invalid arguments for tool search: tags: Invalid input: expected array, received string',
    );
  });

  it('discards every repair when the repaired arguments still fail', () => {
    const schema = z.object({ tags: z.array(z.string()), count: z.number() });
    const rejection = expectRejected(prepare(schema, { tags: '["a"]', count: 'three' }));
    expect(rejection.issues.map((issue) => issue.path)).toEqual([['tags'], ['count']]);
  });

  it('does not mutate the caller-supplied arguments', () => {
    const args = { filters: { status: '["open"]' }, ids: [1] };
    const schema = z.object({ filters: z.object({ status: z.array(z.string()) }), ids: z.array(z.string()) });
    expectAccepted(prepare(schema, args));
    expect(args).toEqual({ filters: { status: '["open"]' }, ids: [1] });
  });
});

describe('repairAtIssues', () => {
  const expectedArray = (path: PropertyKey[]): z.core.$ZodIssue => ({
    code: 'invalid_type',
    expected: 'array',
    path,
    message: 'Invalid input: expected array, received string',
  });

  it('repairs a value once even when two issues name it', () => {
    const repair = repairAtIssues({ tags: '["a"]' }, [expectedArray(['tags']), expectedArray(['tags'])]);
    expect(repair).toEqual({ args: { tags: ['a'] }, coerced: ['tags'] });
  });

  it('does not repair inside a value it already repaired', () => {
    const repair = repairAtIssues({ a: '[{"b":"[1]"}]' }, [expectedArray(['a']), expectedArray(['a', 0, 'b'])]);
    expect(repair?.coerced).toEqual(['a']);
  });

  it('offers nothing for JSON of the wrong container kind', () => {
    expect(repairAtIssues({ tags: '{"a":1}' }, [expectedArray(['tags'])])).toBeUndefined();
  });

  it('offers nothing for a path the arguments do not hold', () => {
    expect(repairAtIssues({}, [expectedArray(['tags'])])).toBeUndefined();
  });

  it('keeps a __proto__ argument key as data', () => {
    const args = JSON.parse('{"__proto__":"[1]"}') as Record<string, unknown>;
    const repair = repairAtIssues(args, [expectedArray(['__proto__'])]);
    expect(Object.getPrototypeOf(repair?.args)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(repair?.args, '__proto__')?.value).toEqual([1]);
  });
});
