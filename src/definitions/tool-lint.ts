// Boot-time checks of one tool definition. Errors stop boot; warnings are logged. Each finding names the tool and
// says what to change, so an author fixes it without reading Kiln's source.
import type { z } from 'zod';
import type { EnrichmentMetadata } from '../../decorators/enrichment.js';
import type { ToolMetadata } from '../../decorators/tool.js';
import type { ErrorContract } from '../../decorators/types.js';
import type { JsonSchema } from './json-schema.js';
import { undescribedFields } from './json-schema.js';

export interface LintFindings {
  readonly errors: string[];
  readonly warnings: string[];
}

const TOOL_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const CAP_LIKE_INPUTS = [
  'limit',
  'per_page',
  'perPage',
  'page_size',
  'pageSize',
  'max_results',
  'maxResults',
  'max_items',
  'maxItems',
];
const MIN_RECOVERY_WORDS = 5;

export interface ToolLintSubject {
  readonly className: string;
  readonly metadata: ToolMetadata;
  readonly contract: ErrorContract;
  readonly enrichment: EnrichmentMetadata | undefined;
  readonly inputJson: JsonSchema;
  readonly outputJson: JsonSchema | undefined;
  /** Declared success fields (zod shape keys, or a raw output schema's root properties). */
  readonly outputKeys: readonly string[];
  readonly enrichmentJson: JsonSchema | undefined;
}

export function lintTool(subject: ToolLintSubject, findings: LintFindings): void {
  const { metadata, contract, enrichment } = subject;
  const tool = `Tool ${metadata.name} (${subject.className})`;
  const { errors, warnings } = findings;

  if (!TOOL_NAME.test(metadata.name) || metadata.name.length > 64) {
    errors.push(`${tool}: name must be snake_case, 1–64 characters (for example notes_get_note).`);
  }
  if (!metadata.options.description?.trim()) errors.push(`${tool}: description is empty; say when and how to use it.`);

  for (const [label, json] of [
    ['input', subject.inputJson],
    ['output', subject.outputJson],
    ['enrichment', subject.enrichmentJson],
  ] as const) {
    if (!json) continue;
    const missing = undescribedFields(json);
    if (missing.length > 0) {
      errors.push(
        `${tool}: ${label} fields without .describe(): ${missing.join(', ')}. Every field needs a description.`,
      );
    }
  }

  const { outputKeys } = subject;
  const enrichmentKeys = Object.keys(enrichment?.shape ?? {});
  if (outputKeys.includes('error') || enrichmentKeys.includes('error')) {
    errors.push(`${tool}: 'error' is reserved for the failure envelope; rename the field (errorText, failureDetail).`);
  }
  const shared = enrichmentKeys.filter((key) => outputKeys.includes(key));
  if (shared.length > 0)
    errors.push(`${tool}: enrichment keys must be disjoint from output keys; both declare ${shared.join(', ')}.`);

  const seenReasons = new Set<string>();
  for (const entry of contract) {
    if (seenReasons.has(entry.reason)) errors.push(`${tool}: error reason '${entry.reason}' is declared twice.`);
    seenReasons.add(entry.reason);
    const words = entry.recovery.trim().split(/\s+/).filter(Boolean).length;
    if (words < MIN_RECOVERY_WORDS) {
      errors.push(
        `${tool}: recovery for '${entry.reason}' has ${words} word(s); write at least ${MIN_RECOVERY_WORDS} telling the agent its next move.`,
      );
    }
  }

  for (const key of enrichmentKeys) {
    if (isStructured(enrichment?.shape[key]) && !enrichment?.trailer[key]?.render) {
      errors.push(
        `${tool}: enrichment field '${key}' is an object or array; give it a trailer render so content[] shows markdown, not JSON.`,
      );
    }
  }

  const inputKeys = Object.keys((subject.inputJson.properties as object | undefined) ?? {});
  const capped = inputKeys.some((key) => CAP_LIKE_INPUTS.includes(key));
  const returnsList = Object.values(
    (subject.outputJson?.properties as Record<string, JsonSchema> | undefined) ?? {},
  ).some((property) => property.type === 'array');
  const discloses = [...outputKeys, ...enrichmentKeys].some((key) => key === 'truncated' || key === 'totalCount');
  if (capped && returnsList && !discloses) {
    warnings.push(
      `${tool}: takes a cap-like input and returns a list but declares neither 'truncated' nor 'totalCount'; ` +
        'disclose truncation with ctx.enrich.truncated() or ctx.enrich.total().',
    );
  }
}

function isStructured(schema: z.ZodType | undefined): boolean {
  let current = schema?._zod.def;
  while (current && (current.type === 'optional' || current.type === 'nullable' || current.type === 'default')) {
    current = (current as unknown as { innerType: z.ZodType }).innerType._zod.def;
  }
  return current?.type === 'object' || current?.type === 'array' || current?.type === 'record';
}
