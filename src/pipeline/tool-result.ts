// Assembles CallToolResults. On success content[] is media blocks, then format() (or JSON), then the enrichment
// trailer; structuredContent is the parsed output with its enrichment. On failure both surfaces carry the envelope.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ContentBlock } from '../context/content-collect.js';
import type { EnrichKind } from '../context/enrich.js';
import type { CompiledTool } from '../definitions/compiled-tool.js';
import { renderEnrichmentTrailer } from '../definitions/enrichment-trailer.js';
import { type ErrorEnvelope, renderErrorEnvelope } from './error-envelope.js';

export interface SuccessParts {
  readonly structured: Record<string, unknown> | undefined;
  readonly domain: unknown;
  readonly media: readonly ContentBlock[];
  readonly enrichmentValues: Readonly<Record<string, unknown>>;
  readonly enrichmentKinds: ReadonlyMap<string, EnrichKind>;
  readonly formatted: string | readonly { type: string }[] | undefined;
}

export function successResult(tool: CompiledTool, parts: SuccessParts): CallToolResult {
  const content: ContentBlock[] = [...parts.media, ...domainBlocks(parts.formatted, parts.domain)];
  // A content-only tool has no structuredContent; its enrichment still reaches the trailer.
  const trailer = renderEnrichmentTrailer(
    tool.enrichmentKeys,
    parts.structured ?? parts.enrichmentValues,
    parts.enrichmentKinds,
    tool.enrichmentTrailer,
  );
  if (trailer) content.push({ type: 'text', text: trailer });
  const result: CallToolResult = { content: content as CallToolResult['content'] };
  if (parts.structured) result.structuredContent = parts.structured;
  return result;
}

export function errorResult(envelope: ErrorEnvelope): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: renderErrorEnvelope(envelope) }],
    structuredContent: { error: envelope },
  };
}

function domainBlocks(formatted: SuccessParts['formatted'], domain: unknown): ContentBlock[] {
  if (typeof formatted === 'string') return [{ type: 'text', text: formatted }];
  if (Array.isArray(formatted)) return formatted as ContentBlock[];
  if (typeof domain === 'string') return [{ type: 'text', text: domain }];
  if (Array.isArray(domain)) return domain as ContentBlock[];
  return [{ type: 'text', text: JSON.stringify(domain, null, 2) }];
}
