// Arguments for a tool, derived from the JSON Schema it advertises in tools/list: values that satisfy the schema (to
// reach the handler), values that break one of its constraints, wrong types, extra and prototype-named keys, and
// non-object arguments. The subset covered is what Kiln emits from zod: object, string, number, integer, boolean,
// array, enum, with their bounds.
import fc from 'fast-check';
import { deepValue, edgeNumber, hostileJson, hostileString, keyName, pollutingObject } from './hostile-values.js';

export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly enum?: readonly unknown[];
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** A value the schema accepts. */
export function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (primaryType(schema)) {
    case 'string':
      return validString(schema.minLength ?? 0, Math.min(schema.maxLength ?? 60, 60));
    case 'integer': {
      const [min, max] = bounds(schema);
      return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
    }
    case 'number': {
      const [min, max] = bounds(schema);
      return fc.double({ min, max, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object':
      return validObject(schema);
    default:
      return hostileJson;
  }
}

/** ASCII, graphemes or any code point, within bounds counted in UTF-16 units as zod counts them. */
function validString(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.string({ minLength, maxLength }),
      fc.string({ unit: 'grapheme', minLength, maxLength }),
      fc.string({ unit: 'binary', minLength, maxLength }),
    )
    .filter((text) => text.length >= minLength && text.length <= maxLength);
}

/** A value that breaks one constraint of the schema, or has the wrong type altogether. */
export function invalidValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  // A schema with no type of its own ($ref, composition) has no wrong type to send: any value may be right.
  const broken: fc.Arbitrary<unknown>[] =
    primaryType(schema) === undefined
      ? [hostileJson]
      : [fc.oneof(hostileJson, deepValue, pollutingObject).filter((value) => !hasType(schema, value))];
  if (schema.minLength !== undefined && schema.minLength > 0) {
    broken.push(fc.string({ maxLength: schema.minLength - 1 }));
  }
  if (schema.maxLength !== undefined) {
    broken.push(fc.integer({ min: schema.maxLength + 1, max: schema.maxLength * 50 + 1 }).map((n) => 'y'.repeat(n)));
  }
  // Bounds at the edge of safe integers (zod's int()) leave no safe integer beyond them to send.
  const { minimum, maximum } = schema;
  if (minimum !== undefined && minimum - 1 >= Number.MIN_SAFE_INTEGER) {
    broken.push(
      fc.integer({ min: Math.max(Number.MIN_SAFE_INTEGER, minimum - 1_000_000), max: Math.ceil(minimum) - 1 }),
    );
  }
  if (maximum !== undefined && maximum + 1 <= Number.MAX_SAFE_INTEGER) {
    broken.push(
      fc.integer({ min: Math.floor(maximum) + 1, max: Math.min(Number.MAX_SAFE_INTEGER, maximum + 1_000_000) }),
    );
  }
  if (primaryType(schema) === 'integer') broken.push(fc.double({ noInteger: true, noNaN: true }));
  if (primaryType(schema) === 'array') broken.push(fc.array(invalidValue(schema.items ?? {}), { minLength: 1 }));
  return fc.oneof(...broken);
}

/** Valid, invalid or hostile: what a fuzzed argument slot holds. */
export function anyValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: validValue(schema), weight: 3 },
    { arbitrary: invalidValue(schema), weight: 2 },
    { arbitrary: fc.oneof(hostileString, edgeNumber), weight: 1 },
  );
}

export interface FuzzedArguments {
  readonly args: unknown;
  /** True when every slot was drawn valid and no key was added or dropped: the schema accepts these arguments. */
  readonly valid: boolean;
}

/** The whole `arguments` of a call to a tool whose inputSchema is `schema`. */
export function toolArguments(schema: JsonSchema): fc.Arbitrary<FuzzedArguments> {
  // Drawing each property valid satisfies a schema only when nothing ties the properties together or points
  // elsewhere; with composition or references the draw is still sent, but not promised to be accepted.
  const assured = !usesComposition(schema);
  const valid = validObject(schema).map((args) => ({ args, valid: assured }));
  const mangled = mangledObject(schema).map((args) => ({ args, valid: false }));
  const notAnObject = fc
    .oneof(hostileString, edgeNumber, fc.constant(null), fc.array(hostileJson, { maxLength: 3 }), deepValue)
    .filter((args) => typeof args !== 'object' || args === null || Array.isArray(args))
    .map((args) => ({ args, valid: false }));
  return fc.oneof(
    { arbitrary: valid, weight: 3 },
    { arbitrary: mangled, weight: 6 },
    { arbitrary: notAnObject, weight: 1 },
  );
}

function validObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const slots = Object.entries(properties).map(([name, property]) =>
    required.has(name)
      ? validValue(property).map((value) => [[name, value]] as [string, unknown][])
      : fc.option(
          validValue(property).map((value) => [[name, value]] as [string, unknown][]),
          { nil: [] as [string, unknown][] },
        ),
  );
  return fc.tuple(...slots).map((entries) => Object.fromEntries(entries.flat()));
}

/** Each declared key present (valid or broken) or dropped, plus extra keys that may name prototype members. */
function mangledObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const slots = Object.entries(schema.properties ?? {}).map(([name, property]) =>
    fc.option(
      anyValue(property).map((value) => [[name, value]] as [string, unknown][]),
      { nil: [] as [string, unknown][], freq: 4 },
    ),
  );
  const extras = fc.array(fc.tuple(keyName, fc.oneof(hostileJson, pollutingObject)), { maxLength: 3 });
  return fc
    .tuple(fc.tuple(...slots), extras)
    .map(([declared, extra]) => Object.fromEntries([...declared.flat(), ...extra]));
}

/**
 * Valid numbers near zero: the schema's bounds intersected with -1,000..1,000 (a tool may wait that many ms), or a
 * window of 2,000 at the schema's own bound when the two do not meet.
 */
function bounds(schema: { readonly minimum?: number; readonly maximum?: number }): [number, number] {
  const min = Math.max(schema.minimum ?? -1_000, -1_000);
  const max = Math.min(schema.maximum ?? 1_000, 1_000);
  if (min <= max) return [min, max];
  return schema.minimum !== undefined && schema.minimum > 1_000
    ? [schema.minimum, Math.min(schema.maximum ?? Number.MAX_SAFE_INTEGER, schema.minimum + 2_000)]
    : [Math.max(schema.minimum ?? Number.MIN_SAFE_INTEGER, (schema.maximum ?? 0) - 2_000), schema.maximum ?? 0];
}

function primaryType(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type[0] : (schema.type as string | undefined);
}

const COMPOSITION_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'not', 'if', '$ref', 'dependentRequired'];

function usesComposition(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  if (COMPOSITION_KEYWORDS.some((keyword) => keyword in schema)) return true;
  return Object.values(schema).some((child) => usesComposition(child));
}

function hasType(schema: JsonSchema, value: unknown): boolean {
  switch (primaryType(schema)) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}
