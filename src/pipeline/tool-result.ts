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
  const limited = tool.maxResultBytes === undefined ? undefined : capContent(content, tool.maxResultBytes, tool.name);
  const result: CallToolResult = { content: (limited?.content ?? content) as CallToolResult['content'] };
  if (parts.structured) result.structuredContent = parts.structured;
  if (limited) result._meta = { [RESULT_TRUNCATED_META]: { bytes: limited.bytes, limit: tool.maxResultBytes } };
  return result;
}

/** `_meta` of a result whose content[] was cut to the tool's maxResultBytes: how large it was, and the limit. */
export const RESULT_TRUNCATED_META = 'mcp-kiln/truncated';

const blockBytes = (block: ContentBlock) => Buffer.byteLength(JSON.stringify(block), 'utf8');

/**
 * content[] within `limit` bytes (each block counted as it is sent): whole blocks while they fit, then the text of
 * the first that does not, cut at a character boundary; other blocks beyond are left out. A closing block says what
 * was cut. Undefined when everything fits.
 */
function capContent(
  content: readonly ContentBlock[],
  limit: number,
  toolName: string,
): { content: ContentBlock[]; bytes: number } | undefined {
  const bytes = content.reduce((sum, block) => sum + blockBytes(block), 0);
  if (bytes <= limit) return undefined;
  const kept: ContentBlock[] = [];
  let budget = limit;
  for (const block of content) {
    const size = blockBytes(block);
    if (size <= budget) {
      kept.push(block);
      budget -= size;
      continue;
    }
    const whole = (block as unknown as { text?: unknown }).text;
    if (block.type === 'text' && typeof whole === 'string') {
      const text = cutToBytes(whole, budget - blockBytes({ ...block, text: '' } as ContentBlock));
      if (text.length > 0) kept.push({ ...block, text } as ContentBlock);
    }
    break;
  }
  const shown = kept.reduce((sum, block) => sum + blockBytes(block), 0);
  kept.push({
    type: 'text',
    text:
      `[Truncated: ${toolName} returned ${bytes} bytes of content; the first ${shown} are shown (the limit is ` +
      `${limit}). Ask for less: a narrower query or a smaller page.]`,
  } as ContentBlock);
  return { content: kept, bytes };
}

/** The longest prefix of `text` whose JSON-escaped form fits in `budget` bytes, never splitting a character. */
function cutToBytes(text: string, budget: number): string {
  if (budget <= 0) return '';
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(JSON.stringify(text.slice(0, mid)), 'utf8') - 2 <= budget) low = mid;
    else high = mid - 1;
  }
  // A lone high surrogate at the end would be half a character.
  const last = text.charCodeAt(low - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, low - 1) : text.slice(0, low);
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
