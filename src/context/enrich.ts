// ctx.enrich: accumulates success-path fields (notices, totals, echoes, truncation) for structuredContent and the
// content[] trailer. Kind tags remember which helper wrote a key so the trailer renders it conventionally.
import type { z } from 'zod';
import type { EnrichmentShape } from '../../decorators/types.js';
import type { Bivariant } from './bivariant.js';

export type EnrichKind = 'notice' | 'total' | 'echo' | 'delta';

export interface TruncationDisclosure {
  readonly shown: number;
  readonly cap: number;
  readonly ceiling?: number;
  readonly guidance?: string;
}

export interface EnrichHelpers {
  /** Writes `notice`, rendered as a block quote. Last call wins. */
  notice(text: string): void;
  /** Writes `totalCount`, rendered as "N total". */
  total(count: number): void;
  /** Writes `effectiveQuery`, rendered as "Query: …". */
  echo(query: string): void;
  /** Writes `{ before, after }` under `field`, rendered as "field: before → after". */
  delta(change: { readonly field: string; readonly before: unknown; readonly after: unknown }): void;
  /** Capped-list disclosure: `truncated`, `shown`, `cap`, `truncationCeiling?` and a `notice`. */
  truncated(disclosure: TruncationDisclosure): void;
}

export type Enrich = Bivariant<(fields: Readonly<Record<string, unknown>>) => void> & EnrichHelpers;

/** `ctx.enrich` on a handler whose tool declares an enrichment block: only declared fields compile. */
export type TypedEnrich<S extends EnrichmentShape> = Bivariant<(fields: Partial<z.output<z.ZodObject<S>>>) => void> &
  EnrichHelpers;

export interface EnrichmentCollector {
  readonly enrich: Enrich;
  readonly values: Readonly<Record<string, unknown>>;
  readonly kinds: ReadonlyMap<string, EnrichKind>;
}

export function createEnrichmentCollector(): EnrichmentCollector {
  const values: Record<string, unknown> = {};
  const kinds = new Map<string, EnrichKind>();
  const write = (key: string, value: unknown, kind?: EnrichKind) => {
    values[key] = value;
    if (kind) kinds.set(key, kind);
    else kinds.delete(key);
  };
  const helpers: EnrichHelpers = {
    notice: (text) => write('notice', text, 'notice'),
    total: (count) => write('totalCount', count, 'total'),
    echo: (query) => write('effectiveQuery', query, 'echo'),
    delta: ({ field, before, after }) => write(field, { before, after }, 'delta'),
    truncated: ({ shown, cap, ceiling, guidance }) => {
      write('truncated', true);
      write('shown', shown);
      write('cap', cap);
      if (ceiling !== undefined) write('truncationCeiling', ceiling);
      write(
        'notice',
        guidance ??
          `Showing ${shown} of more results (capped at ${cap}). Narrow the request or raise the limit to see the rest.`,
        'notice',
      );
    },
  };
  const call = (fields: Readonly<Record<string, unknown>>) => {
    for (const [key, value] of Object.entries(fields)) write(key, value);
  };
  return { enrich: Object.assign(call, helpers) as Enrich, values, kinds };
}
