// Boot-time checks of one tool definition. Errors stop boot; warnings are logged. Each finding names the tool and
// says what to change, so an author fixes it without reading Kiln's source.
import type { z } from 'zod';
import type { EnrichmentMetadata } from '../../../decorators/enrichment.js';
import type { ToolMetadata } from '../../../decorators/tool.js';
import type { ErrorContract } from '../../../decorators/types.js';
import type { JsonSchema } from '../schema/json-schema.js';
import { undescribedFields } from '../schema/json-schema.js';
import { descriptionShapeProblem } from './description-shape.js';
import { checkFormatParity } from './format-parity.js';
import { type LintErrorRule, type LintWarningRule, lintFinding } from './lint-rule.js';
import { toolNameShapeProblem } from './tool-name-shape.js';
import { unrepresentableInputFields } from './unrepresentable-input.js';

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
const ROOT_COMPOSITIONS = ['oneOf', 'anyOf', 'allOf'];

export interface ToolLintSubject {
  readonly toolClass: { readonly name: string; readonly prototype: unknown };
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
  const tool = `Tool ${metadata.name} (${subject.toolClass.name})`;
  const error = (message: string, rule: LintErrorRule) => findings.errors.push(lintFinding(tool, message, rule));
  const warning = (message: string, rule: LintWarningRule) => findings.warnings.push(lintFinding(tool, message, rule));
  const { description, input } = metadata.options;

  if (!TOOL_NAME.test(metadata.name) || metadata.name.length > 64) {
    error('name must be snake_case, 1–64 characters (for example notes_get_note).', 'tool-name');
  } else {
    const shape = toolNameShapeProblem(metadata.name);
    if (shape) warning(`${shape}.`, 'tool-name-shape');
  }
  if (!description?.trim()) error('description is empty; say when and how to use it.', 'description-empty');
  else {
    const shape = descriptionShapeProblem(description);
    if (shape) warning(`${shape}.`, 'description-shape');
  }

  if (input) {
    for (const field of unrepresentableInputFields(input)) {
      error(
        `input field '${field.path}' is ${field.declared}, which JSON Schema cannot express: tools/list advertises ` +
          `it with no type and no JSON argument can satisfy it, so the tool could never be called; ${field.fix}.`,
        'input-unrepresentable',
      );
    }
  }

  for (const [label, json] of [
    ['input', subject.inputJson],
    ['output', subject.outputJson],
    ['enrichment', subject.enrichmentJson],
  ] as const) {
    if (!json) continue;
    const missing = undescribedFields(json);
    if (missing.length > 0) {
      error(
        `${label} fields without .describe(): ${missing.join(', ')}. Every field needs a description.`,
        'field-description',
      );
    }
  }

  const { outputKeys } = subject;
  const enrichmentKeys = Object.keys(enrichment?.shape ?? {});
  if (outputKeys.includes('error') || enrichmentKeys.includes('error')) {
    error(
      "'error' is reserved for the failure envelope; rename the field (errorText, failureDetail).",
      'reserved-error-key',
    );
  }
  const shared = enrichmentKeys.filter((key) => outputKeys.includes(key));
  if (shared.length > 0) {
    error(
      `enrichment keys must be disjoint from output keys; both declare ${shared.join(', ')}.`,
      'enrichment-output-overlap',
    );
  }

  const seenReasons = new Set<string>();
  for (const entry of contract) {
    if (seenReasons.has(entry.reason)) {
      error(`error reason '${entry.reason}' is declared twice; keep one entry per reason.`, 'duplicate-error-reason');
    }
    seenReasons.add(entry.reason);
    const words = entry.recovery.trim().split(/\s+/).filter(Boolean).length;
    if (words < MIN_RECOVERY_WORDS) {
      error(
        `recovery for '${entry.reason}' has ${words} word(s); write at least ${MIN_RECOVERY_WORDS} telling the agent its next move.`,
        'recovery-too-short',
      );
    }
  }

  for (const key of enrichmentKeys) {
    if (isStructured(enrichment?.shape[key]) && !enrichment?.trailer[key]?.render) {
      error(
        `enrichment field '${key}' is an object or array; give it a trailer render so content[] shows markdown, not JSON.`,
        'enrichment-trailer-render',
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
    warning(
      "takes a cap-like input and returns a list but declares neither 'truncated' nor 'totalCount'; " +
        'disclose truncation with ctx.enrich.truncated() or ctx.enrich.total().',
      'capped-list-no-truncation',
    );
  }

  const compositions = ROOT_COMPOSITIONS.filter((keyword) => keyword in subject.inputJson);
  if (compositions.length > 0) {
    warning(
      `the input schema has ${compositions.join(' and ')} at its root, which the Anthropic Messages API refuses ` +
        'in input_schema (Claude clients flatten a union root to its first branch). For a tool Claude clients ' +
        "must call, declare a flat z.object() with an enum mode field, name each mode's required fields in its " +
        '.describe() and check the combination in the handler (a raw schema may use a root if/then/else).',
      'schema-root-oneof-portability',
    );
  }

  const parity = checkFormatParity(subject.toolClass, subject.outputJson);
  if (parity.kind === 'missing') {
    warning(
      `format() leaves out output field(s) ${parity.fields.join(', ')}: clients that read content[] never see ` +
        'them. Render every output field in format(), or remove format() to let Kiln render the result as JSON.',
      'format-parity',
    );
  } else if (parity.kind === 'threw') {
    warning(
      `format() threw on a sample result (${parity.message}); make it a pure function of the result that ` +
        'renders any valid one.',
      'format-parity',
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
