// A raw JSON Schema 2020-12 input runs the same stages as a zod one: drop client keys → aliases (declared and
// case-style) → validate (Ajv) → repair at the paths the issues name, and a rejection reports zod-shaped issues.
import { describe, expect, it } from 'vitest';
import type { JsonInputSchema } from '../../../decorators/json-schema.js';
import {
  compileJsonSchemaInput,
  DEFAULT_INPUT_OPTIONS,
  type InputOptions,
} from '../../../src/definitions/input/index.js';
import { prepareArguments } from '../../../src/pipeline/input/index.js';
import { expectAccepted, expectRejected } from './expect-prepared.js';

function compile(
  schema: JsonInputSchema,
  { aliases, options }: { aliases?: Record<string, string>; options?: Partial<InputOptions> } = {},
) {
  return compileJsonSchemaInput(schema, {
    toolName: 'search',
    aliases,
    options: { ...DEFAULT_INPUT_OPTIONS, ...options },
  }).input;
}

const Search: JsonInputSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 3, description: 'Words to find.' },
    maxResults: { type: 'integer', minimum: 1, default: 10, description: 'Cap.' },
    tags: { type: 'array', items: { type: 'string' }, description: 'Tags.' },
    filter: {
      type: 'object',
      properties: { shelf: { type: 'string', description: 'Shelf code.' } },
      additionalProperties: false,
      description: 'Narrows the search.',
    },
    mode: { enum: ['fast', 'thorough'], description: 'How hard to look.' },
    code: { type: ['string', 'null'], description: 'An item code.' },
  },
  required: ['query'],
  additionalProperties: false,
};

describe('prepareArguments with a raw JSON Schema input', () => {
  it('accepts valid arguments and fills the declared defaults without touching the caller’s object', () => {
    const args = { query: 'lamp' };
    const result = expectAccepted(prepareArguments(compile(Search), args));
    expect(result.value).toEqual({ query: 'lamp', maxResults: 10 });
    expect(args).toEqual({ query: 'lamp' });
  });

  it('drops client-added keys and rewrites declared and case-style aliases', () => {
    const compiled = compile(Search, { aliases: { q: 'query' } });
    const result = expectAccepted(
      prepareArguments(compiled, { q: 'lamp', max_results: 5, _meta: { x: 1 }, toolCallId: 'c1' }),
    );
    expect(result.value).toEqual({ query: 'lamp', maxResults: 5 });
    expect(result.events).toEqual({
      ignored: ['_meta', 'toolCallId'],
      aliased: [
        ['q', 'query'],
        ['max_results', 'maxResults'],
      ],
      coerced: [],
    });
  });

  it('repairs a stringified array or object and a safe integer sent for a string, then validates', () => {
    const result = expectAccepted(
      prepareArguments(compile(Search), {
        query: 'lamp',
        tags: '["a","b"]',
        filter: '{"shelf":"A3"}',
        code: 8654467,
      }),
    );
    expect(result.value).toMatchObject({ tags: ['a', 'b'], filter: { shelf: 'A3' }, code: '8654467' });
    expect(result.events.coerced.sort()).toEqual(['code', 'filter', 'tags']);
  });

  it('never repairs a value that breaks the schema for another reason', () => {
    const rejection = expectRejected(prepareArguments(compile(Search), { query: 'lamp', maxResults: '3' }));
    expect(rejection.issues).toEqual([
      expect.objectContaining({ code: 'invalid_type', expected: 'int', path: ['maxResults'] }),
    ]);
  });

  it('rejects with zod-shaped issues, paths and the accepted-keys hint', () => {
    const rejection = expectRejected(
      prepareArguments(compile(Search), { query: 'la', mode: 'slow', extra: 1, other: 2, filter: { shelf: 3, x: 1 } }),
    );
    expect(rejection.message).toBe(
      'Invalid arguments for tool search: Unrecognized keys: "extra", "other"; ' +
        'query: Invalid input: must NOT have fewer than 3 characters; filter: Unrecognized key: "x"; ' +
        'filter.shelf: Invalid input: expected string, received number; ' +
        'mode: Invalid option: expected one of "fast"|"thorough"',
    );
    expect(rejection.notes).toEqual(['Accepted keys: query, maxResults, tags, filter, mode, code.']);
  });

  it('reports a missing required key with its declared type, and array positions as numbers', () => {
    const schema: JsonInputSchema = {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Name.' },
        ids: { type: 'array', items: { type: 'integer' }, description: 'Ids.' },
      },
      required: ['name'],
      additionalProperties: false,
    };
    const rejection = expectRejected(prepareArguments(compile(schema), { ids: [1, 'x'] }));
    expect(rejection.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['name'], 'Invalid input: expected string, received undefined'],
      [['ids', 1], 'Invalid input: expected int, received string'],
    ]);
  });

  it('nests the branches of an anyOf, with paths relative to the union, as zod does', () => {
    const schema: JsonInputSchema = {
      type: 'object',
      properties: { target: { anyOf: [{ type: 'array' }, { type: 'object' }], description: 'Target.' } },
      additionalProperties: false,
    };
    const rejection = expectRejected(prepareArguments(compile(schema), { target: 5 }));
    expect(rejection.issues).toEqual([
      expect.objectContaining({
        code: 'invalid_union',
        path: ['target'],
        errors: [
          [expect.objectContaining({ code: 'invalid_type', expected: 'array', path: [] })],
          [expect.objectContaining({ code: 'invalid_type', expected: 'object', path: [] })],
        ],
      }),
    ]);
    // A stringified object satisfies the object branch after repair.
    expect(expectAccepted(prepareArguments(compile(schema), { target: '{"a":1}' })).value).toEqual({
      target: { a: 1 },
    });
  });

  it('applies conditional requirements (if/then/else) and reports what the branch required', () => {
    const schema: JsonInputSchema = {
      type: 'object',
      properties: {
        method: { enum: ['phone', 'email'], description: 'Method.' },
        phone: { type: 'string', description: 'Phone.' },
        email: { type: 'string', description: 'Email.' },
      },
      if: { properties: { method: { const: 'phone' } }, required: ['method'] },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema conditional keyword; its value is no function.
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    };
    const rejection = expectRejected(prepareArguments(compile(schema), { method: 'phone', email: 'a@b.c' }));
    expect(rejection.issues).toEqual([
      expect.objectContaining({ path: ['phone'], message: 'Invalid input: expected string, received undefined' }),
    ]);
    expect(expectAccepted(prepareArguments(compile(schema), { email: 'a@b.c' })).value).toEqual({ email: 'a@b.c' });
  });

  it('leaves an open root alone: unknown keys reach the handler, nothing is dropped or rewritten', () => {
    const open = compile({ type: 'object', properties: { query: { type: 'string', description: 'Q.' } } });
    expect(open.authorOpened).toBe(true);
    const result = expectAccepted(prepareArguments(open, { Query: 'x', _meta: { a: 1 } }));
    expect(result.value).toEqual({ Query: 'x', _meta: { a: 1 } });
    expect(result.events).toEqual({ ignored: [], aliased: [], coerced: [] });
  });

  it('declares the keys of composition branches when unevaluatedProperties closes the root', () => {
    const compiled = compile({
      type: 'object',
      $defs: { paging: { properties: { cursor: { type: 'string', description: 'Cursor.' } } } },
      properties: { query: { type: 'string', description: 'Q.' } },
      allOf: [{ $ref: '#/$defs/paging' }, { properties: { limit: { type: 'integer', description: 'Limit.' } } }],
      unevaluatedProperties: false,
    });
    expect([...compiled.declaredKeys].sort()).toEqual(['cursor', 'limit', 'query']);
    expect(expectAccepted(prepareArguments(compiled, { QUERY: 'x', cursor: 'c' })).value).toEqual({
      query: 'x',
      cursor: 'c',
    });
    expect(expectRejected(prepareArguments(compiled, { nope: 1 })).issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['nope'] }),
    ]);
  });

  it('turns coerce off like a zod input', () => {
    const compiled = compile(Search, { options: { coerce: false } });
    expect(expectRejected(prepareArguments(compiled, { query: 'lamp', tags: '["a"]' })).issues).toEqual([
      expect.objectContaining({ code: 'invalid_type', expected: 'array', path: ['tags'] }),
    ]);
  });
});
