// ctx.enrich: fields accumulate across calls, a later write wins, and the kind helpers write their conventional
// keys and tag them for the trailer.
import { describe, expect, it } from 'vitest';
import { createEnrichmentCollector } from '../../src/context/enrich.js';

describe('ctx.enrich', () => {
  it('accumulates fields across calls', () => {
    const { enrich, values } = createEnrichmentCollector();
    enrich({ region: 'eu' });
    enrich({ shard: 3 });
    expect(values).toEqual({ region: 'eu', shard: 3 });
  });

  it('lets the last write of a key win', () => {
    const { enrich, values } = createEnrichmentCollector();
    enrich({ region: 'eu', shard: 1 });
    enrich({ region: 'us' });
    expect(values).toEqual({ region: 'us', shard: 1 });
  });

  it('leaves plain writes untagged', () => {
    const { enrich, kinds } = createEnrichmentCollector();
    enrich({ region: 'eu' });
    expect(kinds.size).toBe(0);
  });
});

describe('kind helpers', () => {
  it('write their conventional keys and tag them', () => {
    const { enrich, values, kinds } = createEnrichmentCollector();
    enrich.notice('Nothing matched.');
    enrich.total(12);
    enrich.echo('tag:urgent');
    enrich.delta({ field: 'status', before: 'open', after: 'closed' });
    expect(values).toEqual({
      notice: 'Nothing matched.',
      totalCount: 12,
      effectiveQuery: 'tag:urgent',
      status: { before: 'open', after: 'closed' },
    });
    expect(Object.fromEntries(kinds)).toEqual({
      notice: 'notice',
      totalCount: 'total',
      effectiveQuery: 'echo',
      status: 'delta',
    });
  });

  it('let the last notice win', () => {
    const { enrich, values } = createEnrichmentCollector();
    enrich.notice('first');
    enrich.notice('second');
    expect(values.notice).toBe('second');
  });

  it('drop the tag when a plain write replaces a helper’s key', () => {
    const { enrich, values, kinds } = createEnrichmentCollector();
    enrich.total(12);
    enrich({ totalCount: 13 });
    expect(values.totalCount).toBe(13);
    expect(kinds.has('totalCount')).toBe(false);
  });
});

describe('ctx.enrich.truncated', () => {
  it('writes truncated, shown, cap and a default notice naming both numbers, without a ceiling', () => {
    const { enrich, values, kinds } = createEnrichmentCollector();
    enrich.truncated({ shown: 10, cap: 10 });
    expect(values).toEqual({
      truncated: true,
      shown: 10,
      cap: 10,
      notice: 'Showing 10 of more results (capped at 10). Narrow the request or raise the limit to see the rest.',
    });
    expect('truncationCeiling' in values).toBe(false);
    expect(kinds.get('notice')).toBe('notice');
  });

  it('adds truncationCeiling when a ceiling is given, even zero', () => {
    const { enrich, values } = createEnrichmentCollector();
    enrich.truncated({ shown: 5, cap: 5, ceiling: 0 });
    expect(values.truncationCeiling).toBe(0);
  });

  it('uses the guidance as the notice when given', () => {
    const { enrich, values } = createEnrichmentCollector();
    enrich.truncated({ shown: 50, cap: 50, ceiling: 7, guidance: 'Narrow with filters or raise per_page (max 200).' });
    expect(values).toEqual({
      truncated: true,
      shown: 50,
      cap: 50,
      truncationCeiling: 7,
      notice: 'Narrow with filters or raise per_page (max 200).',
    });
  });

  it('shares the notice key with ctx.enrich.notice: whichever runs last wins', () => {
    const before = createEnrichmentCollector();
    before.enrich.notice('No exact match.');
    before.enrich.truncated({ shown: 3, cap: 3, guidance: 'Capped at 3.' });
    expect(before.values.notice).toBe('Capped at 3.');

    const after = createEnrichmentCollector();
    after.enrich.truncated({ shown: 3, cap: 3, guidance: 'Capped at 3.' });
    after.enrich.notice('No exact match.');
    expect(after.values.notice).toBe('No exact match.');
  });
});
