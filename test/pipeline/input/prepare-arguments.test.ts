import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prepareArguments } from '../../../src/pipeline/input/index.js';
import { compileForTest } from './compile-for-test.js';
import { expectAccepted, expectRejected } from './expect-prepared.js';

describe('prepareArguments: the alias-first retry', () => {
  const query = z.object({ query: z.string().min(3) });

  it('reports the retry rejection for a declared underscore alias: the too-short query, not a missing one', () => {
    const rejection = expectRejected(
      prepareArguments(compileForTest(query, { aliases: { _q: 'query' } }), { _q: 'ab' }),
    );
    expect(rejection.issues).toEqual([expect.objectContaining({ code: 'too_small', path: ['query'] })]);
    expect(rejection.message).toBe(
      'Invalid arguments for tool search: query: Too small: expected string to have >=3 characters',
    );
    expect(rejection.notes).toEqual(['Validated _q as query.']);
    expect(rejection.input).toEqual({ dropped: [], aliased: [['_q', 'query']] });
  });

  it('accepts a declared underscore alias through the retry', () => {
    const result = expectAccepted(
      prepareArguments(compileForTest(query, { aliases: { _q: 'query' } }), { _q: 'abcd' }),
    );
    expect(result.value).toEqual({ query: 'abcd' });
    expect(result.events).toEqual({ ignored: [], aliased: [['_q', 'query']], coerced: [] });
  });

  it('accepts the underscore spelling of a declared key through case-style folding', () => {
    const result = expectAccepted(prepareArguments(compileForTest(query), { _query: 'abcd' }));
    expect(result.value).toEqual({ query: 'abcd' });
    expect(result.events.aliased).toEqual([['_query', 'query']]);
  });

  it('does not fold the underscore spelling when caseStyleAliases is off', () => {
    const compiled = compileForTest(query, { options: { caseStyleAliases: false } });
    const rejection = expectRejected(prepareArguments(compiled, { _query: 'abcd' }));
    expect(rejection.issues).toEqual([expect.objectContaining({ code: 'invalid_type', path: ['query'] })]);
    expect(rejection.notes).toEqual(['Dropped undeclared key _query.']);
  });

  it('keeps the first order when it validates: _max_results is dropped, not folded', () => {
    const schema = z.object({ query: z.string(), maxResults: z.number().optional() });
    const result = expectAccepted(prepareArguments(compileForTest(schema), { query: 'abc', _max_results: '12345' }));
    expect(result.value).toEqual({ query: 'abc' });
    expect(result.events).toEqual({ ignored: ['_max_results'], aliased: [], coerced: [] });
  });

  it('runs its own repair', () => {
    const schema = z.object({ tags: z.array(z.string()) });
    const result = expectAccepted(
      prepareArguments(compileForTest(schema, { aliases: { _t: 'tags' } }), { _t: '["a"]' }),
    );
    expect(result.value).toEqual({ tags: ['a'] });
    expect(result.events).toEqual({ ignored: [], aliased: [['_t', 'tags']], coerced: ['tags'] });
  });

  it('still drops underscore keys it cannot resolve', () => {
    const compiled = compileForTest(query, { aliases: { _q: 'query' } });
    const result = expectAccepted(prepareArguments(compiled, { _q: 'abcd', _trace: 1, _meta: {} }));
    expect(result.value).toEqual({ query: 'abcd' });
    expect(result.events).toEqual({ ignored: ['_trace', '_meta'], aliased: [['_q', 'query']], coerced: [] });
  });

  it('never folds an ignore-listed key onto a declared one: _meta stays dropped beside a declared meta', () => {
    const schema = z.object({ meta: z.object({ page: z.number() }) });
    const rejection = expectRejected(prepareArguments(compileForTest(schema), { _meta: { page: 1 } }));
    expect(rejection.issues).toEqual([expect.objectContaining({ code: 'invalid_type', path: ['meta'] })]);
    expect(rejection.notes).toEqual([]);
    expect(rejection.input).toBeUndefined();
  });

  it('never folds an ignoreKeys entry onto a declared one', () => {
    const compiled = compileForTest(z.object({ clientTag: z.string() }), { options: { ignoreKeys: ['client_tag'] } });
    const rejection = expectRejected(prepareArguments(compiled, { client_tag: 'x' }));
    expect(rejection.issues).toEqual([expect.objectContaining({ path: ['clientTag'] })]);
  });

  it('rewrites an ignore-listed key a declared alias names', () => {
    const compiled = compileForTest(z.object({ callId: z.string() }), { aliases: { toolCallId: 'callId' } });
    const result = expectAccepted(prepareArguments(compiled, { toolCallId: 'c1' }));
    expect(result.value).toEqual({ callId: 'c1' });
    expect(result.events.aliased).toEqual([['toolCallId', 'callId']]);
  });

  it('does not run when nothing was dropped', () => {
    const compiled = compileForTest(query);
    const rejection = expectRejected(prepareArguments(compiled, { Query: 'ab' }));
    expect(rejection.notes).toEqual(['Validated Query as query.']);
    expect(rejection.input).toEqual({ dropped: [], aliased: [['Query', 'query']] });
  });
});

describe('prepareArguments: events', () => {
  it('reports every stage that changed the accepted arguments', () => {
    const schema = z.object({ query: z.string(), maxResults: z.number().optional(), tags: z.array(z.string()) });
    const result = expectAccepted(
      prepareArguments(compileForTest(schema), { query: 'a', max_results: 3, tags: '["x"]', toolCallId: 'c', _n: 1 }),
    );
    expect(result.value).toEqual({ query: 'a', maxResults: 3, tags: ['x'] });
    expect(result.events).toEqual({
      ignored: ['toolCallId', '_n'],
      aliased: [['max_results', 'maxResults']],
      coerced: ['tags'],
    });
  });

  it('reports nothing for arguments that needed no help', () => {
    const result = expectAccepted(prepareArguments(compileForTest(z.object({ q: z.string() })), { q: 'a' }));
    expect(result.events).toEqual({ ignored: [], aliased: [], coerced: [] });
  });

  it('returns the parsed output, defaults and transforms included', () => {
    const schema = z.object({ q: z.string().transform((v) => v.trim()), limit: z.number().default(10) });
    expect(expectAccepted(prepareArguments(compileForTest(schema), { q: ' a ' })).value).toEqual({ q: 'a', limit: 10 });
  });
});

describe('prepareArguments: rejections', () => {
  const search = z.object({ query: z.string(), maxResults: z.number().optional() });

  it('names an unrecognized key and lists the accepted keys', () => {
    const rejection = expectRejected(prepareArguments(compileForTest(search), { querry: 'a' }));
    expect(rejection.ok).toBe(false);
    expect(rejection.message).toBe(
      'Invalid arguments for tool search: query: Invalid input: expected string, received undefined; Unrecognized key: "querry"',
    );
    expect(rejection.notes).toEqual(['Accepted keys: query, maxResults.']);
    expect(rejection.input).toBeUndefined();
  });

  it('reads exactly like strict input for a lone unknown key', () => {
    const rejection = expectRejected(prepareArguments(compileForTest(search), { query: 'a', querry: 'b' }));
    expect(rejection.message).toBe('Invalid arguments for tool search: Unrecognized key: "querry"');
  });

  it('lists the selected variant keys on a union root', () => {
    const compiled = compileForTest(
      z.discriminatedUnion('mode', [
        z.object({ mode: z.literal('byId'), id: z.string() }),
        z.object({ mode: z.literal('byName'), name: z.string() }),
      ]),
    );
    const rejection = expectRejected(prepareArguments(compiled, { mode: 'byId', id: '1', name: 'x' }));
    expect(rejection.notes).toEqual(['Accepted keys: mode, id.']);
  });

  it('closes with the underscore-rule drops but not the client-list drops', () => {
    const rejection = expectRejected(
      prepareArguments(compileForTest(search), { query: 'a', _max: 5, _meta: {}, toolCallId: 'c', querry: 1 }),
    );
    expect(rejection.notes).toEqual(['Dropped undeclared key _max.', 'Accepted keys: query, maxResults.']);
    expect(rejection.input).toEqual({ dropped: ['_max'], aliased: [] });
  });

  it('puts rewrites before drops in the notes', () => {
    const rejection = expectRejected(
      prepareArguments(compileForTest(search), { max_results: 'x', query: 'a', _max: 5 }),
    );
    expect(rejection.notes).toEqual(['Validated max_results as maxResults.', 'Dropped undeclared key _max.']);
    expect(rejection.message).toBe(
      'Invalid arguments for tool search: maxResults: Invalid input: expected number, received string',
    );
  });

  it.each([
    ['an array', ['a'], 'array'],
    ['a string', '{"query":"a"}', 'string'],
    ['a number', 5, 'number'],
  ])('rejects %s as arguments', (_label, raw, received) => {
    const rejection = expectRejected(prepareArguments(compileForTest(search), raw));
    expect(rejection.message).toBe(
      `Invalid arguments for tool search: Invalid input: expected an object of named arguments, received ${received}`,
    );
    expect(rejection.issues).toEqual([expect.objectContaining({ code: 'invalid_type', expected: 'object', path: [] })]);
  });

  it.each([[undefined], [null]])('treats %s arguments as {}', (raw) => {
    const optional = compileForTest(z.object({ q: z.string().optional() }));
    expect(expectAccepted(prepareArguments(optional, raw)).value).toEqual({});
    const rejection = expectRejected(prepareArguments(compileForTest(search), raw));
    expect(rejection.issues).toEqual([expect.objectContaining({ code: 'invalid_type', path: ['query'] })]);
  });
});
