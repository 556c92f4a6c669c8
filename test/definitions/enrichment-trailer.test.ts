// The content[] enrichment trailer: one line per present field in declaration order; kind tags, then the author's
// render/label, then `**key:** value`; a blank line after a block quote or list item so the next field stays apart.
import { describe, expect, it } from 'vitest';
import type { EnrichmentShape, EnrichmentTrailer } from '../../decorators/types.js';
import { createEnrichmentCollector } from '../../src/context/enrich.js';
import { renderEnrichmentTrailer } from '../../src/definitions/enrichment-trailer.js';

/** Runs `write` against a fresh collector and renders what it recorded, as the pipeline does. */
function trailerOf(
  keys: readonly string[],
  write: (enrich: ReturnType<typeof createEnrichmentCollector>['enrich']) => void,
  trailer: EnrichmentTrailer<EnrichmentShape> = {},
): string | undefined {
  const collector = createEnrichmentCollector();
  write(collector.enrich);
  return renderEnrichmentTrailer(keys, collector.values, collector.kinds, trailer);
}

describe('renderEnrichmentTrailer', () => {
  it('renders present fields in declaration order, whatever order they were written in', () => {
    const text = trailerOf(['region', 'shard', 'owner'], (enrich) => {
      enrich({ owner: 'ops' });
      enrich({ region: 'eu' });
    });
    expect(text).toBe('**region:** eu\n**owner:** ops');
  });

  it('renders nothing when no declared field was written', () => {
    expect(trailerOf(['region'], () => undefined)).toBeUndefined();
    expect(trailerOf(['region'], (enrich) => enrich({ undeclared: 1 }))).toBeUndefined();
  });

  it('renders falsy values that are present', () => {
    expect(trailerOf(['count', 'partial'], (enrich) => enrich({ count: 0, partial: false }))).toBe(
      '**count:** 0\n**partial:** false',
    );
  });

  it('renders each kind tag conventionally', () => {
    const keys = ['effectiveQuery', 'totalCount', 'status'];
    const text = trailerOf(keys, (enrich) => {
      enrich.echo('tag:urgent');
      enrich.total(42);
      enrich.delta({ field: 'status', before: 'open', after: { state: 'closed' } });
    });
    expect(text).toBe('Query: tag:urgent\n42 total\nstatus: open → {"state":"closed"}');
  });

  it('renders a notice as a block quote, every line quoted', () => {
    expect(trailerOf(['notice'], (enrich) => enrich.notice('Nothing matched.\nTry fewer words.'))).toBe(
      '> Nothing matched.\n> Try fewer words.',
    );
  });

  it('uses the label, then the render, of a field without a kind', () => {
    const trailer = {
      totalFound: { label: 'Total Found' },
      filters: {
        label: 'ignored when render exists',
        render: (f: unknown) => `Filters: ${(f as { tag: string }).tag}`,
      },
    } as EnrichmentTrailer<EnrichmentShape>;
    const text = trailerOf(
      ['totalFound', 'filters'],
      (enrich) => enrich({ totalFound: 2990, filters: { tag: 'x' } }),
      trailer,
    );
    expect(text).toBe('**Total Found:** 2990\nFilters: x');
  });

  it('lets a kind tag win over the author’s render', () => {
    const trailer = { totalCount: { render: () => 'custom' } } as EnrichmentTrailer<EnrichmentShape>;
    expect(trailerOf(['totalCount'], (enrich) => enrich.total(3), trailer)).toBe('3 total');
  });

  it('drops the kind tag when a plain write replaces a helper’s value', () => {
    expect(
      trailerOf(['totalCount'], (enrich) => {
        enrich.total(3);
        enrich({ totalCount: 4 });
      }),
    ).toBe('**totalCount:** 4');
  });

  it('renders objects and arrays as JSON when no render is given', () => {
    expect(
      trailerOf(['filters', 'ids'], (enrich) => enrich({ filters: { tag: 'x', since: 2024 }, ids: ['a', 'b'] })),
    ).toBe('**filters:** {"tag":"x","since":2024}\n**ids:** ["a","b"]');
  });

  it('puts a blank line after a block quote so the next field is not folded into it', () => {
    const text = trailerOf(['notice', 'totalCount'], (enrich) => {
      enrich.notice('Showing 10 of 42.');
      enrich.total(42);
    });
    expect(text).toBe('> Showing 10 of 42.\n\n42 total');
  });

  it.each([
    ['a bullet', (v: unknown) => `### Filters\n- Range: ${String(v)}`],
    ['a star bullet', (v: unknown) => `* ${String(v)}`],
    ['an ordered item', (v: unknown) => `1. ${String(v)}`],
    ['a quote', (v: unknown) => `> ${String(v)}`],
  ])('puts a blank line after a render ending in %s', (_label, render) => {
    const trailer = { filters: { render } } as EnrichmentTrailer<EnrichmentShape>;
    const text = trailerOf(['filters', 'region'], (enrich) => enrich({ filters: '2024', region: 'eu' }), trailer);
    expect(text).toMatch(/\n\n\*\*region:\*\* eu$/);
  });

  it('adds no blank line after a line that only starts with a dash or digits', () => {
    const trailer = {
      delta: { render: () => '-5 degrees' },
      year: { render: () => '2024 edition' },
    } as EnrichmentTrailer<EnrichmentShape>;
    const text = trailerOf(
      ['delta', 'year', 'region'],
      (enrich) => enrich({ delta: -5, year: 2024, region: 'eu' }),
      trailer,
    );
    expect(text).toBe('-5 degrees\n2024 edition\n**region:** eu');
  });

  it('never ends with a blank line', () => {
    expect(
      trailerOf(['totalCount', 'notice'], (enrich) => {
        enrich.total(1);
        enrich.notice('Only one match.');
      }),
    ).toBe('1 total\n> Only one match.');
  });
});
