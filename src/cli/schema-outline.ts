// A JSON Schema object flattened into rows a terminal can show: one per field, nested objects and arrays of objects
// as dotted paths (`address.city`, `items[].sku`), with the type, whether it is required and its constraints.
type Schema = Record<string, unknown>;

export interface SchemaRow {
  readonly path: string;
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
  /** Constraints and defaults, readable: `default 10`, `max 100`, `pattern ^[a-z]+$`. */
  readonly facts: readonly string[];
}

const MAX_DEPTH = 4;

const FACTS: readonly (readonly [string, string])[] = [
  ['default', 'default'],
  ['minimum', 'min'],
  ['exclusiveMinimum', 'greater than'],
  ['maximum', 'max'],
  ['exclusiveMaximum', 'less than'],
  ['minLength', 'min length'],
  ['maxLength', 'max length'],
  ['minItems', 'min items'],
  ['maxItems', 'max items'],
  ['pattern', 'pattern'],
];

export function schemaRows(schema: Schema, prefix = '', depth = 0): SchemaRow[] {
  const properties = asSchema(schema.properties);
  if (!properties) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(properties).flatMap(([name, value]) => {
    const field = asSchema(value) ?? {};
    const path = `${prefix}${name}`;
    const description = typeof field.description === 'string' ? field.description : undefined;
    const row: SchemaRow = {
      path,
      type: typeLabel(field),
      required: required.has(name),
      ...(description ? { description } : {}),
      facts: facts(field),
    };
    if (depth + 1 >= MAX_DEPTH) return [row];
    const items = asSchema(field.items);
    const nested = field.properties ? schemaRows(field, `${path}.`, depth + 1) : [];
    const itemRows = items?.properties ? schemaRows(items, `${path}[].`, depth + 1) : [];
    return [row, ...nested, ...itemRows];
  });
}

export function typeLabel(schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return union.map((member) => typeLabel(asSchema(member) ?? {})).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array') {
    const items = asSchema(schema.items);
    const item = items ? typeLabel(items) : 'any';
    return item.includes(' ') ? `(${item})[]` : `${item}[]`;
  }
  if (typeof schema.type === 'string') {
    return typeof schema.format === 'string' ? `${schema.type} (${schema.format})` : schema.type;
  }
  return 'any';
}

function facts(schema: Schema): string[] {
  return FACTS.flatMap(([key, label]) => (key in schema ? [`${label} ${factValue(key, schema[key])}`] : []));
}

/** A pattern as written; anything else as JSON, so a default of "" or [] stays visible. */
const factValue = (key: string, value: unknown) =>
  key === 'pattern' && typeof value === 'string' ? value : JSON.stringify(value);

function asSchema(value: unknown): Schema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : undefined;
}
