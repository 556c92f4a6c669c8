import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findAliasConflicts, strictenInputSchema } from '../../../src/definitions/input/index.js';
import { compileForTest } from '../../pipeline/input/compile-for-test.js';

const lookup = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('byId'), id: z.string() }),
  z.object({ mode: z.enum(['byName', 'byTitle']), name: z.string(), maxResults: z.number().optional() }),
]);

describe('compileInput', () => {
  it('precomputes the key data of an object root', () => {
    const compiled = compileForTest(z.object({ query: z.string(), maxResults: z.number().optional() }), {
      aliases: { q: 'query' },
      options: { ignoreKeys: ['client_tag'] },
    });
    expect(compiled.toolName).toBe('search');
    expect(compiled.root).toBe('object');
    expect(compiled.discriminator).toBeUndefined();
    expect([...compiled.declaredKeys]).toEqual(['query', 'maxResults']);
    expect(compiled.variants[0]?.folded.get('maxresults')).toBe('maxResults');
    expect([...(compiled.variants[0]?.aliases ?? [])]).toEqual([['q', 'query']]);
    expect([...compiled.clientKeys]).toEqual(['_meta', 'tool_call_description', 'toolCallId', 'client_tag']);
    expect(compiled).toMatchObject({ dropEnabled: true, declaresUnderscoreKey: false, authorOpened: false });
  });

  it('precomputes per-variant data of a discriminated-union root', () => {
    const compiled = compileForTest(lookup, { aliases: { identifier: 'id' } });
    expect(compiled.root).toBe('discriminatedUnion');
    expect(compiled.discriminator).toBe('mode');
    expect([...compiled.declaredKeys]).toEqual(['mode', 'id', 'name', 'maxResults']);
    const byName = compiled.variantByDiscriminator.get('byName');
    expect(compiled.variantByDiscriminator.get('byTitle')).toBe(byName);
    expect(byName?.acceptedKeys).toEqual(['mode', 'name', 'maxResults']);
    expect(byName?.aliases.size).toBe(0);
    expect(compiled.variantByDiscriminator.get('byId')?.aliases.get('identifier')).toBe('id');
  });

  it('marks a case-folded form naming two declared keys as ambiguous', () => {
    const compiled = compileForTest(z.object({ maxResults: z.number(), max_results: z.number() }));
    expect(compiled.variants[0]?.folded.get('maxresults')).toBeNull();
  });

  it('records underscore keys, a disabled drop stage and an author-opened root', () => {
    expect(compileForTest(z.object({ _cursor: z.string() })).declaresUnderscoreKey).toBe(true);
    const compiled = compileForTest(z.object({ q: z.string() }).loose(), { options: { ignoreKeys: false } });
    expect(compiled.dropEnabled).toBe(false);
    expect(compiled.authorOpened).toBe(true);
    expect([...compiled.clientKeys]).toEqual(['_meta', 'tool_call_description', 'toolCallId']);
  });

  it('parses against the strict root', () => {
    const compiled = compileForTest(z.object({ q: z.string() }));
    expect(compiled.schema.safeParse({ q: 'a', r: 1 }).success).toBe(false);
  });

  it('passes an unsupported root through as a TypeError', () => {
    expect(() => compileForTest(z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]))).toThrow(
      TypeError,
    );
  });
});

describe('alias validation', () => {
  const input = z.object({ drug: z.string(), maxResults: z.number().optional(), limit: z.number().optional() });
  const problemsFor = (aliases: Record<string, string>, schema: z.ZodType = input) =>
    findAliasConflicts(strictenInputSchema(schema), aliases);

  it('accepts one-to-one aliases onto declared keys', () => {
    expect(problemsFor({ drug_name: 'drug', substance: 'drug', max_results: 'maxResults' })).toEqual([]);
    expect(() => compileForTest(input, { aliases: { substance: 'drug' } })).not.toThrow();
  });

  it('rejects an alias that shadows a declared key', () => {
    expect(problemsFor({ limit: 'maxResults' })).toEqual(['Alias "limit" shadows the declared key "limit".']);
  });

  it('rejects an alias whose target does not exist', () => {
    expect(problemsFor({ drug_name: 'drugs' })).toEqual([
      'Alias "drug_name" names "drugs", which the input does not declare.',
    ]);
    expect(problemsFor({ title: 'heading' }, lookup)).toEqual([
      'Alias "title" names "heading", which no variant declares.',
    ]);
  });

  it('accepts a union alias whose target exists in one variant', () => {
    expect(problemsFor({ identifier: 'id', title: 'name' }, lookup)).toEqual([]);
  });

  it('rejects an alias onto the discriminator, which could never apply', () => {
    expect(problemsFor({ kind: 'mode' }, lookup)).toEqual([
      expect.stringMatching(/^Alias "kind" names the discriminator "mode"/),
    ]);
  });

  it('rejects an alias that reads as a different declared key', () => {
    expect(problemsFor({ max_results: 'limit' })).toEqual([
      'Alias "max_results" names "limit" but reads as the declared key "maxResults" once case and separators are ignored.',
    ]);
  });

  it('rejects two aliases that differ only in case style but name different keys', () => {
    expect(problemsFor({ drugName: 'drug', DRUG_NAME: 'limit' })).toEqual([
      'Aliases "drugName" and "DRUG_NAME" differ only in case or separators but name different keys ("drug", "limit").',
    ]);
  });

  it('throws one TypeError listing every problem, naming the tool', () => {
    const act = () => compileForTest(input, { aliases: { limit: 'drug', drug_name: 'drugs' } });
    expect(act).toThrow(TypeError);
    expect(act).toThrow(
      'Input aliases of tool search conflict:\n  - Alias "limit" shadows the declared key "limit".\n  - Alias "drug_name" names "drugs", which the input does not declare.',
    );
  });
});
