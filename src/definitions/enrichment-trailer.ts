// Renders the enrichment trailer: one markdown line per field present, in declaration order. Kind tags win, then
// the author's render/label, then `**key:** value`.
import type { EnrichmentShape, EnrichmentTrailer } from '../../decorators/types.js';
import type { EnrichKind } from '../context/enrich.js';

export function renderEnrichmentTrailer(
  keys: readonly string[],
  values: Readonly<Record<string, unknown>>,
  kinds: ReadonlyMap<string, EnrichKind>,
  trailer: EnrichmentTrailer<EnrichmentShape>,
): string | undefined {
  const lines: string[] = [];
  for (const key of keys) {
    const value = values[key];
    if (value === undefined) continue;
    const line = renderField(key, value, kinds.get(key), trailer[key]);
    lines.push(line);
    // A line that opens a block quote or list item would swallow the next field by CommonMark lazy continuation.
    if (opensContainer(line)) lines.push('');
  }
  while (lines.at(-1) === '') lines.pop();
  return lines.length > 0 ? lines.join('\n') : undefined;
}

function renderField(
  key: string,
  value: unknown,
  kind: EnrichKind | undefined,
  field: { label?: string; render?: (value: never) => string } | undefined,
): string {
  switch (kind) {
    case 'notice':
      return String(value)
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
    case 'total':
      return `${String(value)} total`;
    case 'echo':
      return `Query: ${String(value)}`;
    case 'delta': {
      const { before, after } = value as { before: unknown; after: unknown };
      return `${key}: ${inline(before)} → ${inline(after)}`;
    }
  }
  if (field?.render) return field.render(value as never);
  return `**${field?.label ?? key}:** ${inline(value)}`;
}

function inline(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function opensContainer(line: string): boolean {
  const last = line.split('\n').at(-1)?.trimStart() ?? '';
  return /^(>|[-*+](\s|$)|\d+\.(\s|$))/.test(last);
}
