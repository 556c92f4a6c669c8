// How the playground reads a JSON Schema: local $refs and $anchors, allOf merged, unions and their discriminators, and
// enum options in every shape elicitation uses.
import { isObject, show } from './values.js';

/**
 * A JSON Schema as the page reads it: the keywords it looks at, and any other kept as it came. Subschemas stay
 * `unknown` until resolveSchema has read them, since a server may send anything there.
 */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  format?: string;
  default?: unknown;
  examples?: unknown[];
  const?: unknown;
  enum?: unknown[];
  /** Legacy labels for enum values, by index. */
  enumNames?: string[];
  properties?: Record<string, unknown>;
  required?: string[];
  items?: unknown;
  oneOf?: unknown[];
  anyOf?: unknown[];
  allOf?: unknown[];
  minimum?: number;
  maximum?: number;
  $ref?: string;
  $anchor?: string;
  $defs?: Record<string, unknown>;
  definitions?: Record<string, unknown>;
  [keyword: string]: unknown;
}

/** One choice of an enum: the value sent, and the label shown. */
export interface EnumOption {
  readonly value: unknown;
  readonly label: string;
}

/** Keywords that give a union's branch a shape to choose. */
const SHAPE_KEYWORDS = ['type', 'properties', 'items', 'enum', 'const', 'oneOf', 'anyOf'];

/** Follows local $refs (JSON pointers and $anchor names); keywords beside a $ref win, as in 2020-12. */
export function resolveSchema(schema: unknown, root: JsonSchema): JsonSchema {
  let current: JsonSchema = isObject(schema) ? schema : {};
  for (let hops = 0; typeof current.$ref === 'string' && current.$ref.startsWith('#') && hops < 32; hops++) {
    const { $ref, ...siblings } = current;
    const target = refTarget(current.$ref, root);
    current = { ...(isObject(target) ? target : {}), ...siblings };
  }
  if (Array.isArray(current.allOf)) current = mergeAll(current, root);
  return current;
}

function refTarget(ref: string, root: JsonSchema): unknown {
  if (/^#[A-Za-z_]/.test(ref)) {
    const anchor = ref.slice(1);
    return Object.values(root.$defs || root.definitions || {}).find((def) => isObject(def) && def.$anchor === anchor);
  }
  let target: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    target = isObject(target) ? target[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return target;
}

/** allOf as one schema: properties and required lists joined, other keywords kept where the base has none. */
function mergeAll(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const { allOf = [], ...base } = schema;
  const properties: Record<string, unknown> = { ...schema.properties };
  const required = ([] as string[]).concat(schema.required || []);
  const merged: JsonSchema = { ...base, properties, required };
  for (const part of allOf) {
    const branch = resolveSchema(part, root);
    Object.assign(properties, branch.properties || {});
    required.push(...(branch.required || []));
    for (const [key, value] of Object.entries(branch)) if (!(key in merged)) merged[key] = value;
  }
  return merged;
}

/** The oneOf and anyOf branches together, unresolved. */
const unionOf = (schema: JsonSchema): unknown[] => ([] as unknown[]).concat(schema.oneOf || [], schema.anyOf || []);

/**
 * The branches of a union, null left out: a nullable field is its one other branch. Branches that only constrain
 * (anyOf: [{ required: [a] }, { required: [b] }]) describe no shape to choose between, so they give none.
 */
export function branchesOf(schema: JsonSchema, root: JsonSchema): JsonSchema[] {
  const list = unionOf(schema).map((branch) => resolveSchema(branch, root));
  const shaped = list.filter((branch) => SHAPE_KEYWORDS.some((keyword) => keyword in branch));
  return shaped.length === list.length ? list.filter((branch) => branch.type !== 'null') : [];
}

/** The one type a field edits ('any' when none is given, 'json' when several are). */
export function typeOf(schema: JsonSchema): string {
  const types = ([] as string[]).concat(schema.type || []).filter((type) => type !== 'null');
  if (types.length === 1) return types[0] as string;
  if (types.length === 0 && isObject(schema.properties)) return 'object';
  if (types.length === 0 && isObject(schema.items)) return 'array';
  return types.length === 0 ? 'any' : 'json';
}

/** A union's discriminator: a property holding a const in every branch (kind, type, action, ...). */
export function discriminatorOf(branches: readonly JsonSchema[], root: JsonSchema): string | undefined {
  const first = resolveSchema(branches[0], root).properties || {};
  return Object.keys(first).find((key) =>
    branches.every((branch) => {
      const property = resolveSchema(branch, root).properties?.[key];
      return isObject(property) && 'const' in resolveSchema(property, root);
    }),
  );
}

/** Enum options from enum, titled oneOf/anyOf consts, or legacy enumNames. */
export function enumOptions(schema: JsonSchema, root: JsonSchema): EnumOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = schema.enumNames;
    return schema.enum.map((value, index) => ({
      value,
      label: Array.isArray(names) && names[index] ? names[index] : show(value),
    }));
  }
  const branches = unionOf(schema).map((branch) => resolveSchema(branch, root));
  if (branches.length > 0 && branches.every((branch) => 'const' in branch)) {
    return branches.map((branch) => ({ value: branch.const, label: branch.title || show(branch.const) }));
  }
  return undefined;
}
