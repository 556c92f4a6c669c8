// What a mock context recorded, and the readers tests use to see it. A WeakMap keys each capture by its context,
// so a helper finds the collectors from the context alone and nothing outlives the test that made it.
import type { ContentBlock } from '../context/content-collect.js';
import type { Context } from '../context/context.js';
import type { ContextSeed } from '../context/create-context.js';
import type { EnrichKind, EnrichmentCollector } from '../context/enrich.js';
import type { Logger, LogLevel } from '../logging/index.js';
import type { StorageService } from '../storage/index.js';

/** One `ctx.log` record as it was mirrored to the client (`notifications/message`), after redaction. */
export interface CapturedLog {
  readonly level: LogLevel;
  readonly message: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** One `ctx.progress(...)` call as the transport would have sent it. */
export interface CapturedProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** The parts of a mock context the testing kit reuses: its request seed, storage and logger, and what it heard. */
export interface MockCapture {
  readonly seed: Omit<ContextSeed, 'operation'>;
  readonly storage: StorageService;
  readonly logger: Logger;
  readonly enrichment: EnrichmentCollector;
  readonly media: { readonly blocks: readonly ContentBlock[] };
  readonly logs: CapturedLog[];
  readonly progress: CapturedProgress[];
}

const captures = new WeakMap<object, MockCapture>();

export function registerCapture(context: object, capture: MockCapture): void {
  captures.set(context, capture);
}

/** The capture of a context built by createMockContext; any other context is a test bug, reported by `helper`. */
export function captureOf(context: Context, helper: string): MockCapture {
  const capture = captures.get(context);
  if (!capture) {
    throw new TypeError(
      `${helper}() needs a context made by createMockContext(); this one was built elsewhere, so nothing was recorded.`,
    );
  }
  return capture;
}

/** The enrichment fields the handler (or a service it called) wrote, as a plain object. */
export function getEnrichment(context: Context): Record<string, unknown> {
  return { ...captureOf(context, 'getEnrichment').enrichment.values };
}

/** Which enrichment keys a kind-tagged helper (notice, total, echo, delta) wrote last, for trailer rendering. */
export function getEnrichmentKinds(context: Context): Record<string, EnrichKind> {
  return Object.fromEntries(captureOf(context, 'getEnrichmentKinds').enrichment.kinds);
}

/** The media blocks collected through `ctx.content`, in call order. */
export function getContentBlocks(context: Context): ContentBlock[] {
  return [...captureOf(context, 'getContentBlocks').media.blocks];
}

/** Every `ctx.progress(...)` notification sent, in order. */
export function getProgress(context: Context): CapturedProgress[] {
  return [...captureOf(context, 'getProgress').progress];
}

/** Every `ctx.log` record mirrored to the wire, in order; `data` holds the caller's fields (and `error` if any). */
export function getLogs(context: Context): CapturedLog[] {
  return [...captureOf(context, 'getLogs').logs];
}
