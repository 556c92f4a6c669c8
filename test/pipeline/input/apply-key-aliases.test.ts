import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prepareArguments } from '../../../src/pipeline/input/index.js';
import { compileForTest } from './compile-for-test.js';
import { expectAccepted, expectRejected } from './expect-prepared.js';

const drugProfile = z.object({ drug: z.string() });
const search = z.object({ query: z.string(), maxResults: z.number().optional() });

describe('alias stage: declared aliases', () => {
  it('rewrites a declared alias to its canonical key', () => {
    const compiled = compileForTest(drugProfile, { aliases: { drug_name: 'drug', substance: 'drug' } });
    const result = expectAccepted(prepareArguments(compiled, { substance: 'aspirin' }));
    expect(result.value).toEqual({ drug: 'aspirin' });
    expect(result.events.aliased).toEqual([['substance', 'drug']]);
  });

  it('applies declared aliases with caseStyleAliases off', () => {
    const compiled = compileForTest(drugProfile, {
      aliases: { drug_name: 'drug' },
      options: { caseStyleAliases: false },
    });
    expect(expectAccepted(prepareArguments(compiled, { drug_name: 'aspirin' })).value).toEqual({ drug: 'aspirin' });
  });

  it('does not rewrite when the target is present; the alias fails as strict input', () => {
    const compiled = compileForTest(drugProfile, { aliases: { drug_name: 'drug' } });
    const rejection = expectRejected(prepareArguments(compiled, { drug: 'a', drug_name: 'b' }));
    expect(rejection.message).toBe('Invalid arguments for tool search: Unrecognized key: "drug_name"');
    expect(rejection.input).toBeUndefined();
  });

  it('rewrites neither of two spellings of one absent key', () => {
    const compiled = compileForTest(drugProfile, { aliases: { drug_name: 'drug', substance: 'drug' } });
    const rejection = expectRejected(prepareArguments(compiled, { drug_name: 'a', substance: 'b' }));
    expect(rejection.issues).toContainEqual(expect.objectContaining({ keys: ['drug_name', 'substance'] }));
  });
});

describe('alias stage: case-style aliases', () => {
  it.each([['max_results'], ['Max-Results'], ['MAXRESULTS']])('rewrites %s to maxResults', (key) => {
    const result = expectAccepted(prepareArguments(compileForTest(search), { query: 'a', [key]: 5 }));
    expect(result.value).toEqual({ query: 'a', maxResults: 5 });
    expect(result.events.aliased).toEqual([[key, 'maxResults']]);
  });

  it('keeps the argument order of the call', () => {
    const result = expectAccepted(prepareArguments(compileForTest(search), { max_results: 5, query: 'a' }));
    expect(Object.keys(result.value)).toEqual(['query', 'maxResults']);
    expect(result.events.aliased).toEqual([['max_results', 'maxResults']]);
  });

  it('is off with caseStyleAliases false', () => {
    const compiled = compileForTest(search, { options: { caseStyleAliases: false } });
    const rejection = expectRejected(prepareArguments(compiled, { query: 'a', max_results: 5 }));
    expect(rejection.message).toBe('Invalid arguments for tool search: Unrecognized key: "max_results"');
  });

  it('does not rewrite when the target is present', () => {
    const rejection = expectRejected(
      prepareArguments(compileForTest(search), { query: 'a', maxResults: 1, max_results: 5 }),
    );
    expect(rejection.message).toBe('Invalid arguments for tool search: Unrecognized key: "max_results"');
  });

  it('does not rewrite a form that folds onto two declared keys', () => {
    const compiled = compileForTest(
      z.object({ maxResults: z.number().optional(), max_results: z.number().optional() }),
    );
    const rejection = expectRejected(prepareArguments(compiled, { MAXRESULTS: 5 }));
    expect(rejection.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['MAXRESULTS'] })]);
  });

  it('is not fuzzy matching: a misspelling is still rejected by name', () => {
    const rejection = expectRejected(prepareArguments(compileForTest(search), { querry: 'a' }));
    expect(rejection.issues).toContainEqual(expect.objectContaining({ code: 'unrecognized_keys', keys: ['querry'] }));
  });

  it('never folds a client key onto a declared key, even with the drop stage off', () => {
    const compiled = compileForTest(z.object({ meta: z.object({ page: z.number() }).optional() }), {
      options: { ignoreKeys: false },
    });
    const rejection = expectRejected(prepareArguments(compiled, { _meta: { page: 1 } }));
    expect(rejection.message).toBe('Invalid arguments for tool search: Unrecognized key: "_meta"');
  });

  it('never rewrites keys on an author-opened root', () => {
    const compiled = compileForTest(search.loose(), { aliases: { q: 'query' } });
    const result = expectAccepted(prepareArguments(compiled, { query: 'a', max_results: 5 }));
    expect(result.value).toEqual({ query: 'a', max_results: 5 });
    expect(expectRejected(prepareArguments(compiled, { q: 'a' })).issues).toContainEqual(
      expect.objectContaining({ path: ['query'] }),
    );
  });
});

describe('alias stage: union roots', () => {
  const lookup = z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('byId'), id: z.string() }),
    z.object({ mode: z.literal('byName'), name: z.string(), maxResults: z.number().optional() }),
  ]);
  const compiled = compileForTest(lookup, { aliases: { identifier: 'id', title: 'name' } });

  it('resolves declared aliases against the selected variant', () => {
    expect(expectAccepted(prepareArguments(compiled, { mode: 'byId', identifier: '7' })).value).toEqual({
      mode: 'byId',
      id: '7',
    });
    expect(expectAccepted(prepareArguments(compiled, { mode: 'byName', title: 'x' })).value).toEqual({
      mode: 'byName',
      name: 'x',
    });
  });

  it('does not rewrite to a key of another variant', () => {
    const rejection = expectRejected(prepareArguments(compiled, { mode: 'byId', id: '7', title: 'x' }));
    expect(rejection.message).toBe('Invalid arguments for tool search: Unrecognized key: "title"');
  });

  it('case-folds against the selected variant only', () => {
    const result = expectAccepted(prepareArguments(compiled, { mode: 'byName', name: 'x', max_results: 2 }));
    expect(result.value).toEqual({ mode: 'byName', name: 'x', maxResults: 2 });
    expect(expectRejected(prepareArguments(compiled, { mode: 'byId', id: '7', max_results: 2 })).message).toBe(
      'Invalid arguments for tool search: Unrecognized key: "max_results"',
    );
  });

  it('rewrites nothing when the discriminator is absent', () => {
    const rejection = expectRejected(prepareArguments(compiled, { identifier: '7' }));
    expect(rejection.input).toBeUndefined();
    expect(rejection.issues[0]).toMatchObject({ code: 'invalid_union', path: ['mode'] });
  });

  it('rewrites nothing when the discriminator is unrecognized', () => {
    const rejection = expectRejected(prepareArguments(compiled, { mode: 'byTitle', title: 'x' }));
    expect(rejection.input).toBeUndefined();
    expect(rejection.notes).toEqual([]);
  });
});
