// A tool's input JSON Schema flattened into parameter rows a person can scan: one row per property, nested object
// and array-item properties as dotted paths below their parent, and the root `oneOf` of a union input as variants.
import { displayValue } from './html.js';

export type JsonSchema = Record<string, unknown>;

export interface ParameterFact {
  readonly label: string;
  readonly values: readonly string[];
}

export interface ParameterRow {
  /** Path segments; array items appear as `name[]`, record values as `*`. */
  readonly path: readonly string[];
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
  readonly facts: readonly ParameterFact[];
}

export interface SchemaVariant {
  readonly label: string;
  readonly description?: string;
  readonly rows: readonly ParameterRow[];
}

export interface InputSchemaView {
  readonly rows: readonly ParameterRow[];
  readonly variants: readonly SchemaVariant[];
}

// Deep enough for any schema a tool author writes by hand; a guard against self-referencing schemas.
const MAX_DEPTH = 6;

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const schemaList = (value: unknown): JsonSchema[] => (Array.isArray(value) ? value.filter(isSchema) : []);

export function inputSchemaView(schema: JsonSchema): InputSchemaView {
  const rows = objectRows(schema, schema, [], new Set());
  const branches = [...schemaList(schema.oneOf), ...schemaList(schema.anyOf)];
  const discriminators = sharedConstKeys(branches, schema);
  const variants = branches.map((branch, index) => {
    const resolved = resolveRef(branch, schema);
    const consts = discriminators.map(
      (key) => `${key} = ${JSON.stringify(propertiesOf(resolved, schema)[key]?.const)}`,
    );
    const description = typeof resolved.description === 'string' ? resolved.description : undefined;
    return {
      label: consts.length > 0 ? `Variant ${index + 1}: ${consts.join(', ')}` : `Variant ${index + 1}`,
      ...(description ? { description } : {}),
      rows: objectRows(resolved, schema, [], new Set()),
    };
  });
  return { rows, variants };
}

function objectRows(
  schema: JsonSchema,
  root: JsonSchema,
  prefix: readonly string[],
  refsAbove: ReadonlySet<string>,
): ParameterRow[] {
  const depth = prefix.length;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const rows: ParameterRow[] = [];
  for (const [name, raw] of Object.entries(propertiesOf(schema, root))) {
    const property = resolveRef(raw, root);
    const path = [...prefix, name];
    rows.push({
      path,
      type: typeLabel(raw, root, depth),
      required: required.has(name),
      ...(typeof property.description === 'string' ? { description: property.description } : {}),
      facts: factsOf(property, root),
    });
    // A recursive schema (a tree node holding nodes) is expanded once; its second appearance is just a type.
    const refs = [raw.$ref, isSchema(property.items) ? property.items.$ref : undefined].filter(
      (ref): ref is string => typeof ref === 'string',
    );
    if (depth + 1 >= MAX_DEPTH || refs.some((ref) => refsAbove.has(ref))) continue;
    const nested = nestedObject(property, root);
    const below = new Set([...refsAbove, ...refs]);
    if (nested) rows.push(...objectRows(nested.schema, root, [...prefix, name + nested.suffix], below));
  }
  return rows;
}

/** The object whose properties belong under a row: the property itself, its array items, or its record values. */
function nestedObject(property: JsonSchema, root: JsonSchema): { schema: JsonSchema; suffix: string } | undefined {
  if (hasProperties(property, root)) return { schema: property, suffix: '' };
  const branch = soleBranch(property, root);
  if (branch) return nestedObject(branch, root);
  if (isSchema(property.items)) {
    const items = resolveRef(property.items, root);
    if (hasProperties(items, root)) return { schema: items, suffix: '[]' };
  }
  if (isSchema(property.additionalProperties)) {
    const values = resolveRef(property.additionalProperties, root);
    if (hasProperties(values, root)) return { schema: values, suffix: '.*' };
  }
  return undefined;
}

function typeLabel(raw: JsonSchema, root: JsonSchema, depth: number): string {
  const schema = resolveRef(raw, root);
  if (depth > MAX_DEPTH) return 'object';
  if ('const' in schema) return JSON.stringify(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length > 0) return types.map((type) => singleTypeLabel(String(type), schema, root, depth)).join(' | ');
  const branches = [...schemaList(schema.anyOf), ...schemaList(schema.oneOf)];
  if (branches.length > 0)
    return [...new Set(branches.map((branch) => typeLabel(branch, root, depth + 1)))].join(' | ');
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map((value) => typeof value))].join(' | ');
  if (hasProperties(schema, root)) return 'object';
  return 'any';
}

function singleTypeLabel(type: string, schema: JsonSchema, root: JsonSchema, depth: number): string {
  if (type === 'array') {
    const items = isSchema(schema.items) ? typeLabel(schema.items, root, depth + 1) : 'any';
    return items.includes(' | ') ? `(${items})[]` : `${items}[]`;
  }
  if (type === 'object' && !hasProperties(schema, root) && isSchema(schema.additionalProperties)) {
    return `record<string, ${typeLabel(schema.additionalProperties, root, depth + 1)}>`;
  }
  return type;
}

const FACT_KEYS: readonly (readonly [string, string])[] = [
  ['minimum', 'Minimum'],
  ['exclusiveMinimum', 'Greater than'],
  ['maximum', 'Maximum'],
  ['exclusiveMaximum', 'Less than'],
  ['minLength', 'Min length'],
  ['maxLength', 'Max length'],
  ['minItems', 'Min items'],
  ['maxItems', 'Max items'],
  ['format', 'Format'],
];

function factsOf(property: JsonSchema, root: JsonSchema): ParameterFact[] {
  // A nullable field (`anyOf: [{ enum }, { type: null }]`) keeps its facts on the non-null branch.
  const schema = { ...soleBranch(property, root), ...property };
  const facts: ParameterFact[] = [];
  const items = isSchema(schema.items) ? schema.items : {};
  const enumValues = Array.isArray(schema.enum) ? schema.enum : Array.isArray(items.enum) ? items.enum : undefined;
  if (enumValues) facts.push({ label: 'One of', values: enumValues.map(displayValue) });
  if ('default' in schema) facts.push({ label: 'Default', values: [displayValue(schema.default)] });
  for (const [key, label] of FACT_KEYS) if (key in schema) facts.push({ label, values: [displayValue(schema[key])] });
  // A format already says what a long generated pattern (zod's date-time regex) would; show hand-written ones only.
  if (typeof schema.pattern === 'string' && !('format' in schema) && schema.pattern.length <= 80) {
    facts.push({ label: 'Pattern', values: [schema.pattern] });
  }
  // A header parameter (SEP-2243): gateways read the value from this request header without parsing the body.
  if (typeof schema['x-mcp-header'] === 'string')
    facts.push({ label: 'Header', values: [`Mcp-Param-${schema['x-mcp-header']}`] });
  if (Array.isArray(schema.examples) && schema.examples.length > 0) {
    facts.push({ label: 'Example', values: schema.examples.slice(0, 3).map(displayValue) });
  }
  return facts;
}

/** The one non-null branch of a nullable union, if the property is one. */
function soleBranch(property: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  const nonNull = [...schemaList(property.anyOf), ...schemaList(property.oneOf)]
    .map((branch) => resolveRef(branch, root))
    .filter((branch) => branch.type !== 'null');
  return nonNull.length === 1 ? nonNull[0] : undefined;
}

function propertiesOf(schema: JsonSchema, root: JsonSchema): Record<string, JsonSchema> {
  const resolved = resolveRef(schema, root);
  return isSchema(resolved.properties) ? (resolved.properties as Record<string, JsonSchema>) : {};
}

function hasProperties(schema: JsonSchema, root: JsonSchema): boolean {
  return Object.keys(propertiesOf(schema, root)).length > 0;
}

/**
 * Local `$ref`s (`#`, `#/$defs/X`) as zod emits them for reused and recursive schemas. Keywords beside the `$ref`
 * (zod puts `.describe()` text there) override the target's, as in JSON Schema 2020-12.
 */
function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const { $ref: ref, ...siblings } = schema;
  if (typeof ref !== 'string' || !ref.startsWith('#')) return schema;
  let target: unknown = root;
  for (const segment of ref.slice(1).split('/').filter(Boolean)) {
    target = isSchema(target) ? target[segment.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return { ...(isSchema(target) && target !== schema ? target : {}), ...siblings };
}

/** Property names that carry a `const` in every branch: the union's discriminator (`kind`, `type`, ...). */
function sharedConstKeys(branches: readonly JsonSchema[], root: JsonSchema): string[] {
  if (branches.length === 0) return [];
  const [first, ...rest] = branches.map((branch) => propertiesOf(branch, root));
  return Object.keys(first ?? {}).filter((key) =>
    [first, ...rest].every(
      (properties) => properties !== undefined && properties[key] !== undefined && 'const' in properties[key],
    ),
  );
}
