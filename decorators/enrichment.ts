// @Enrichment(fields, trailer?): agent-facing success-path fields (notices, totals, echoes) merged into
// structuredContent and mirrored as a content[] trailer. `trailer` relabels or renders a field's trailer line.
import { defineMetadata, ENRICHMENT_METADATA } from './metadata-keys.js';
import type { Constructor, EnrichmentShape, EnrichmentTrailer } from './types.js';

export interface EnrichmentMetadata {
  readonly shape: EnrichmentShape;
  readonly trailer: EnrichmentTrailer<EnrichmentShape>;
}

export function Enrichment<S extends EnrichmentShape>(
  shape: S,
  trailer: EnrichmentTrailer<S> = {},
): (target: Constructor) => void {
  return (target) =>
    defineMetadata(ENRICHMENT_METADATA, { shape, trailer: trailer as EnrichmentTrailer<EnrichmentShape> }, target);
}
