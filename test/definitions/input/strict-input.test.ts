import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strictenInputSchema } from '../../../src/definitions/input/index.js';

const unrecognized = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.find((issue) => issue.code === 'unrecognized_keys');

describe('strictenInputSchema', () => {
  it('makes a default (strip) object root strict', () => {
    const author = z.object({ query: z.string() });
    const strict = strictenInputSchema(author);
    expect(strict.root).toBe('object');
    expect(strict.schema).not.toBe(author);
    expect(unrecognized(strict.schema, { query: 'a', querry: 'b' })).toMatchObject({ keys: ['querry'] });
    expect(strict.variants[0]).toMatchObject({ keys: ['query'], authorOpened: false });
  });

  it('returns an already-strict root untouched', () => {
    const author = z.object({ query: z.string() }).strict();
    expect(strictenInputSchema(author).schema).toBe(author);
    expect(strictenInputSchema(author).variants[0]?.authorOpened).toBe(false);
  });

  it.each([
    ['passthrough', z.object({ query: z.string() }).passthrough()],
    ['loose', z.object({ query: z.string() }).loose()],
    ['catchall', z.object({ query: z.string() }).catchall(z.string())],
  ])('leaves an author-opened root (%s) open', (_label, author) => {
    const strict = strictenInputSchema(author);
    expect(strict.schema).toBe(author);
    expect(strict.variants[0]?.authorOpened).toBe(true);
    expect(strict.schema.safeParse({ query: 'a', extra: 'b' }).success).toBe(true);
  });

  it('keeps checks declared on the object root', () => {
    const author = z.object({ from: z.number(), to: z.number() }).refine((v) => v.from <= v.to, 'from after to');
    const strict = strictenInputSchema(author);
    expect(strict.schema.safeParse({ from: 2, to: 1 }).error?.issues[0]?.message).toBe('from after to');
  });

  it('strictens a discriminated-union root per variant, keeping the discriminator', () => {
    const author = z.discriminatedUnion('mode', [
      z.object({ mode: z.literal('byId'), id: z.string() }),
      z.object({ mode: z.enum(['byName', 'byTitle']), name: z.string() }),
    ]);
    const strict = strictenInputSchema(author);
    expect(strict.root).toBe('discriminatedUnion');
    expect(strict.discriminator).toBe('mode');
    expect(strict.schema).toBeInstanceOf(z.ZodDiscriminatedUnion);
    expect(unrecognized(strict.schema, { mode: 'byId', id: '1', name: 'x' })).toMatchObject({ keys: ['name'] });
    expect(unrecognized(strict.schema, { mode: 'byTitle', name: 'x', id: '1' })).toMatchObject({ keys: ['id'] });
    expect(strict.schema.safeParse({ mode: 'byName', name: 'x' }).success).toBe(true);
    expect(strict.variants.map((variant) => variant.discriminatorValues)).toEqual([['byId'], ['byName', 'byTitle']]);
    expect(author.safeParse({ mode: 'byId', id: '1', name: 'x' }).success).toBe(true);
  });

  it('leaves an opened variant open and keeps the union checks', () => {
    const author = z
      .discriminatedUnion('mode', [
        z.object({ mode: z.literal('a'), x: z.string() }),
        z.object({ mode: z.literal('b'), y: z.string() }).loose(),
      ])
      .refine((v) => v.mode !== 'a' || v.x !== 'bad', 'bad x');
    const strict = strictenInputSchema(author);
    expect(strict.variants.map((variant) => variant.authorOpened)).toEqual([false, true]);
    expect(strict.schema.safeParse({ mode: 'b', y: '1', extra: true }).success).toBe(true);
    expect(strict.schema.safeParse({ mode: 'a', x: '1', extra: true }).success).toBe(false);
    expect(strict.schema.safeParse({ mode: 'a', x: 'bad' }).error?.issues[0]?.message).toBe('bad x');
  });

  it('rejects a bare union root, naming the missing discriminator', () => {
    const author = z.union([z.object({ id: z.string() }), z.object({ name: z.string() })]);
    expect(() => strictenInputSchema(author)).toThrow(TypeError);
    expect(() => strictenInputSchema(author)).toThrow(
      'Input root must be z.object(...) or z.discriminatedUnion(...); a bare z.union has no discriminator for the model to choose a branch by',
    );
  });

  it.each([
    ['string', z.string()],
    ['optional object', z.object({ q: z.string() }).optional()],
    ['transformed object', z.object({ q: z.string() }).transform((v) => v.q)],
    ['array', z.array(z.string())],
  ])('rejects a non-object root (%s)', (_label, author) => {
    expect(() => strictenInputSchema(author)).toThrow(
      /^Input root must be z\.object\(\.\.\.\) or z\.discriminatedUnion/,
    );
  });

  it('rejects a union variant that is not an object', () => {
    const author = z.discriminatedUnion('m', [
      z.discriminatedUnion('k', [z.object({ m: z.literal('a'), k: z.literal('x') })]),
      z.object({ m: z.literal('b') }),
    ]);
    expect(() => strictenInputSchema(author)).toThrow(/variant 0 is a union schema/);
  });

  describe('root metadata', () => {
    it('carries a root .describe() onto the strict clone and reports it', () => {
      const strict = strictenInputSchema(z.object({ q: z.string() }).describe('Search the catalog.'));
      expect(strict.schema.description).toBe('Search the catalog.');
      expect(strict.metaCarried).toEqual(['root']);
    });

    it('carries .meta() onto the strict clone', () => {
      const strict = strictenInputSchema(z.object({ q: z.string() }).meta({ title: 'Search', description: 'D' }));
      expect(z.globalRegistry.get(strict.schema)).toEqual({ title: 'Search', description: 'D' });
      expect(z.toJSONSchema(strict.schema)).toMatchObject({ title: 'Search', description: 'D' });
    });

    it('reports nothing when .strict() came before .describe()', () => {
      const strict = strictenInputSchema(z.object({ q: z.string() }).strict().describe('Kept as declared.'));
      expect(strict.schema.description).toBe('Kept as declared.');
      expect(strict.metaCarried).toEqual([]);
    });

    it('reports nothing when the root has no metadata', () => {
      expect(strictenInputSchema(z.object({ q: z.string() })).metaCarried).toEqual([]);
    });

    it('carries union and variant metadata', () => {
      const author = z
        .discriminatedUnion('mode', [
          z.object({ mode: z.literal('a') }).describe('Mode a.'),
          z
            .object({ mode: z.literal('b') })
            .strict()
            .describe('Mode b.'),
        ])
        .describe('Two modes.');
      const strict = strictenInputSchema(author);
      expect(strict.metaCarried).toEqual(['root', 'variant 0']);
      expect(strict.schema.description).toBe('Two modes.');
      expect(strict.variants.map((variant) => variant.schema.description)).toEqual(['Mode a.', 'Mode b.']);
    });
  });
});
