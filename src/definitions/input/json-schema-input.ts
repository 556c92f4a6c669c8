// Boot-time half of argument preparation for a raw JSON Schema 2020-12 input (`@Tool({ inputSchema })`): the schema
// is checked and its validator compiled once, and its declared keys feed the same key tables a zod root does. The
// schema is the author's contract, advertised verbatim: Kiln adds no `additionalProperties: false`, so a root that
// leaves undeclared keys open is treated like an author-opened zod root (no drop, no rewrites).
import type { JsonInputSchema } from '../../../decorators/json-schema.js';
import type { JsonSchema } from '../schema/json-schema.js';
import { compileJsonSchema } from '../schema/json-schema-validator.js';
import { assembleInput, type CompiledInput, type CompileInputConfig } from './compile-input.js';

export interface JsonSchemaInputCompilation {
  readonly input: CompiledInput<Record<string, unknown>>;
  readonly warnings: readonly string[];
}

/**
 * @throws TypeError naming every problem (not valid 2020-12, not an object root, an unresolvable `$ref`, conflicting
 * aliases), one per line; the caller raises it as a boot error.
 */
export function compileJsonSchemaInput(
  schema: JsonInputSchema,
  config: CompileInputConfig,
): JsonSchemaInputCompilation {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || schema.type !== 'object') {
    throw new TypeError('inputSchema must be a JSON Schema object with type: "object" at the root');
  }
  const compilation = compileJsonSchema(schema);
  if (!compilation.compiled) {
    throw new TypeError(`inputSchema ${compilation.problems.join('; ')}`);
  }
  const { compiled } = compilation;
  // A copy: the author's object is what Ajv compiled, and what clients see must not change with it.
  const advertised = structuredClone(schema) as JsonSchema;
  const closed = closesRoot(schema);
  const keys = closed ? declaredKeys(schema, schema.additionalProperties === false) : Object.keys(propertiesOf(schema));
  const input = assembleInput<Record<string, unknown>>(
    {
      root: 'object',
      discriminator: undefined,
      variants: [{ keys, authorOpened: !closed, discriminatorValues: [] }],
    },
    config,
    {
      advertised,
      metaCarried: [],
      validate: (args) => {
        const result = compiled.validate(args);
        return result.ok
          ? { success: true, data: result.value as Record<string, unknown> }
          : { success: false, issues: result.issues };
      },
    },
  );
  const warnings = compilation.warnings.map((warning) => `inputSchema: ${warning}`);
  if (!closed) {
    warnings.push(
      'inputSchema leaves undeclared keys open at the root, so a misspelled argument reaches the handler unnoticed; ' +
        'add additionalProperties: false (or unevaluatedProperties: false with composition) to reject it by name.',
    );
  }
  return { input, warnings };
}

/** Whether undeclared root keys are rejected by the schema itself (and are then worth dropping or rewriting). */
function closesRoot(schema: JsonSchema): boolean {
  if (schema.patternProperties !== undefined) return false;
  return schema.additionalProperties === false || schema.unevaluatedProperties === false;
}

/**
 * Keys the root accepts by name. With `additionalProperties: false` that is the root's own `properties`; with
 * `unevaluatedProperties: false`, also those of the root's composition branches and the local `$ref`s they follow.
 */
function declaredKeys(root: JsonSchema, ownPropertiesOnly: boolean): string[] {
  const keys = new Set(Object.keys(propertiesOf(root)));
  if (ownPropertiesOnly) return [...keys];
  const seen = new Set<JsonSchema>();
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || seen.has(node as JsonSchema)) return;
    const schema = node as JsonSchema;
    seen.add(schema);
    for (const key of Object.keys(propertiesOf(schema))) keys.add(key);
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      if (Array.isArray(schema[keyword])) for (const branch of schema[keyword] as unknown[]) visit(branch);
    }
    for (const keyword of ['if', 'then', 'else'] as const) visit(schema[keyword]);
    if (typeof schema.$ref === 'string') visit(localTarget(root, schema.$ref));
  };
  visit(root);
  return [...keys];
}

function propertiesOf(schema: JsonSchema): Record<string, unknown> {
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>) : {};
}

/** The subschema a local JSON Pointer `$ref` (`#/$defs/address`) names; undefined for any other reference. */
function localTarget(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const segment of ref.slice(2).split('/')) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}
