// A tool's output contract, compiled once at boot: how a handler's return (merged with its enrichment) is checked
// before it becomes structuredContent, and the outputSchema tools/list advertises. The output is zod (`output`) or
// a raw JSON Schema 2020-12 object schema (`outputSchema`); the enrichment block is always zod.
import { z } from 'zod';
import type { JsonOutputSchema } from '../../../decorators/json-schema.js';
import type { EnrichmentShape, ErrorContract } from '../../../decorators/types.js';
import { formatIssuePath } from '../input/format-issue-path.js';
import { type JsonSchema, toJsonSchema } from './json-schema.js';
import { compileJsonSchema } from './json-schema-validator.js';
import { widenOutputSchema, withEnrichment } from './output-schema.js';

export type OutputCheck =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly problem: string };

export interface CompiledOutput {
  /** Declared success fields, in declaration order (the enrichment keys are not among them). */
  readonly keys: readonly string[];
  /** The declared output as JSON Schema, for the linter. */
  readonly declared: JsonSchema;
  readonly advertised: JsonSchema;
  /** Checks a handler's return merged with its enrichment values; the value is what structuredContent carries. */
  check(merged: Record<string, unknown>): OutputCheck;
}

export interface OutputDeclaration {
  readonly output: z.ZodObject | undefined;
  readonly outputSchema: JsonOutputSchema | undefined;
  readonly enrichment: EnrichmentShape;
  readonly contract: ErrorContract;
}

/**
 * @throws TypeError naming what is wrong with a raw output schema; undefined for a content-only tool.
 */
export function compileOutput(declaration: OutputDeclaration): {
  output: CompiledOutput | undefined;
  warnings: readonly string[];
} {
  const { output, outputSchema, enrichment, contract } = declaration;
  if (output) return { output: zodOutput(output, enrichment, contract), warnings: [] };
  if (outputSchema) return jsonSchemaOutput(outputSchema, enrichment, contract);
  return { output: undefined, warnings: [] };
}

function zodOutput(output: z.ZodObject, enrichment: EnrichmentShape, contract: ErrorContract): CompiledOutput {
  const effective = z.object({ ...output.shape, ...enrichment }).strict();
  return {
    keys: Object.keys(output.shape),
    declared: toJsonSchema(output, 'output'),
    advertised: widenOutputSchema(toJsonSchema(effective, 'output'), contract),
    check(merged) {
      const parsed = effective.safeParse(merged);
      return parsed.success
        ? { ok: true, value: parsed.data as Record<string, unknown> }
        : { ok: false, problem: z.prettifyError(parsed.error) };
    },
  };
}

function jsonSchemaOutput(
  schema: JsonOutputSchema,
  enrichment: EnrichmentShape,
  contract: ErrorContract,
): { output: CompiledOutput; warnings: readonly string[] } {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || schema.type !== 'object') {
    // The `{ error }` envelope is an object, and 2025-11-25 clients require structuredContent to be one.
    throw new TypeError(
      'outputSchema must be a JSON Schema object with type: "object" at the root; wrap a list or a scalar in a property',
    );
  }
  const compilation = compileJsonSchema(schema);
  const { compiled } = compilation;
  if (!compiled) throw new TypeError(`outputSchema ${compilation.problems.join('; ')}`);
  const declared = structuredClone(schema) as JsonSchema;
  const enrichmentKeys = Object.keys(enrichment);
  const enrichmentSchema = z.object(enrichment).strict();
  const enrichmentJson = enrichmentKeys.length > 0 ? toJsonSchema(enrichmentSchema, 'output') : undefined;
  const output: CompiledOutput = {
    keys: Object.keys((declared.properties as JsonSchema | undefined) ?? {}),
    declared,
    advertised: widenOutputSchema(withEnrichment(declared, enrichmentJson), contract),
    check(merged) {
      const domain: Record<string, unknown> = {};
      const enrichmentValues: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(merged)) {
        (enrichmentKeys.includes(key) ? enrichmentValues : domain)[key] = value;
      }
      const validated = compiled.validate(domain);
      if (!validated.ok) {
        const lines = validated.issues.map((issue) => `✖ ${issue.message}${where(issue.path)}`);
        return { ok: false, problem: lines.join('\n') };
      }
      const parsedEnrichment = enrichmentSchema.safeParse(enrichmentValues);
      if (!parsedEnrichment.success) return { ok: false, problem: z.prettifyError(parsedEnrichment.error) };
      return { ok: true, value: { ...(validated.value as Record<string, unknown>), ...parsedEnrichment.data } };
    },
  };
  return { output, warnings: compilation.warnings.map((warning) => `outputSchema: ${warning}`) };
}

function where(path: readonly PropertyKey[]): string {
  const formatted = formatIssuePath(path);
  return formatted === '' ? '' : `\n  → at ${formatted}`;
}
