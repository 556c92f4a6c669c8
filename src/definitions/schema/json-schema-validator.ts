// Raw JSON Schema 2020-12 (a tool's `inputSchema` / `outputSchema`): checked against the 2020-12 meta-schema and
// compiled with Ajv once at boot; per call, the validator's errors become issues in the shape the input pipeline
// already reads (zod's), so drop → alias → validate → repair and the invalid_arguments envelope work the same for
// both kinds of schema. Only local `$ref`s resolve: Ajv is given no loader, so a network `$ref` fails at boot (the
// spec forbids dereferencing one automatically). Ajv is required on first use, not imported: most apps declare only zod
// schemas, and loading Ajv is a good part of a cold start they would pay for nothing.
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, Options } from 'ajv/dist/2020.js';
import type addFormats from 'ajv-formats';
import type { z } from 'zod';
import { X_MCP_HEADER } from '../../../decorators/header-param.js';
import type { JsonSchemaObject } from '../../../decorators/json-schema.js';

type Issue = z.core.$ZodIssue;

export type JsonSchemaValidation =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: Issue[] };

export interface CompiledJsonSchema {
  /** Validates a value; `value` is a copy with the schema's `default`s filled in (the input is never mutated). */
  validate(value: unknown): JsonSchemaValidation;
}

export interface JsonSchemaCompilation {
  readonly compiled: CompiledJsonSchema | undefined;
  /** Why the schema cannot be served: not valid 2020-12, or a `$ref` that does not resolve. */
  readonly problems: readonly string[];
  /** What Ajv ignores (an unknown `format`): served, but worth the author's attention. */
  readonly warnings: readonly string[];
}

const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

// One instance for the process: Ajv caches a compiled schema by object, so the same decorated class booted twice (a
// test suite) compiles once. The logger is pointed at the compilation in progress, which is synchronous.
let ajv: Ajv2020 | undefined;
let warningsOfCurrentCompile: string[] = [];

function validatorInstance(): Ajv2020 {
  if (ajv) return ajv;
  const options: Options = {
    allErrors: true,
    // Unknown keywords (`x-mcp-header`, annotations of other vocabularies) are allowed, as 2020-12 allows them.
    strict: false,
    // Issues need the schema beside each error (the declared type of a missing property).
    verbose: true,
    useDefaults: true,
    validateSchema: false,
    logger: {
      log: () => {},
      warn: (...args: unknown[]) => warningsOfCurrentCompile.push(args.map(String).join(' ')),
      error: (...args: unknown[]) => warningsOfCurrentCompile.push(args.map(String).join(' ')),
    },
  };
  // Both are CommonJS, so a synchronous require keeps boot-time compilation synchronous.
  const require = createRequire(import.meta.url);
  const { Ajv2020: Validator } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormatsTo = (require('ajv-formats') as typeof addFormats).default;
  const instance = new Validator(options);
  addFormatsTo(instance);
  instance.addKeyword({ keyword: X_MCP_HEADER, schemaType: 'string' });
  ajv = instance;
  return instance;
}

export function compileJsonSchema(schema: JsonSchemaObject): JsonSchemaCompilation {
  const instance = validatorInstance();
  if (typeof schema.$schema === 'string' && schema.$schema !== DIALECT_2020_12) {
    return {
      compiled: undefined,
      problems: [`$schema is ${schema.$schema}; Kiln serves JSON Schema 2020-12 (${DIALECT_2020_12}) or no $schema`],
      warnings: [],
    };
  }
  if (!instance.validateSchema(schema)) {
    return {
      compiled: undefined,
      problems: [`not a valid JSON Schema 2020-12: ${instance.errorsText(instance.errors, { dataVar: 'schema' })}`],
      warnings: [],
    };
  }
  warningsOfCurrentCompile = [];
  try {
    const validator = instance.compile(schema);
    const fillsDefaults = declaresDefault(schema);
    const compiled: CompiledJsonSchema = {
      validate(value) {
        const candidate = fillsDefaults ? structuredClone(value) : value;
        if (validator(candidate)) return { ok: true, value: candidate };
        return { ok: false, issues: issuesOf(validator.errors ?? [], value, schema) };
      },
    };
    return { compiled, problems: [], warnings: [...new Set(warningsOfCurrentCompile)] };
  } catch (error) {
    return {
      compiled: undefined,
      problems: [(error as Error).message],
      warnings: [...new Set(warningsOfCurrentCompile)],
    };
  } finally {
    warningsOfCurrentCompile = [];
  }
}

/** Whether any subschema declares a `default` Ajv would fill in (then a call's value is copied before validation). */
function declaresDefault(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(declaresDefault);
  if (typeof node !== 'object' || node === null) return false;
  return Object.hasOwn(node, 'default') || Object.values(node).some(declaresDefault);
}

/**
 * Ajv's errors as zod-shaped issues. An anyOf/oneOf becomes one `invalid_union` holding its branches' issues (paths
 * relative to the union, as zod nests them), an `if` is dropped (its then/else errors say what failed), and the keys
 * `additionalProperties` / `unevaluatedProperties` rejected are gathered into one `unrecognized_keys` per object.
 */
function issuesOf(errors: readonly ErrorObject[], data: unknown, root: JsonSchemaObject, base = ''): Issue[] {
  const unions = errors.filter(isUnion);
  const inBranch = (error: ErrorObject) =>
    unions.some((union) => union !== error && error.schemaPath.startsWith(`${union.schemaPath}/`));
  const issues: Issue[] = [];
  const unrecognized = new Map<string, string[]>();
  for (const error of errors) {
    if (inBranch(error) || error.keyword === 'if') continue;
    const path = pathOf(error.instancePath, base, data);
    if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
      const params = error.params as { additionalProperty?: string; unevaluatedProperty?: string };
      const at = JSON.stringify(path);
      const keys = unrecognized.get(at);
      if (keys) keys.push(String(params.additionalProperty ?? params.unevaluatedProperty));
      else {
        const first = [String(params.additionalProperty ?? params.unevaluatedProperty)];
        unrecognized.set(at, first);
        issues.push({ code: 'unrecognized_keys', keys: first, path, message: '' } as Issue);
      }
      continue;
    }
    issues.push(isUnion(error) ? unionIssue(error, errors, path, data, root) : plainIssue(error, path, root));
  }
  // zod words one unknown key as `Unrecognized key: "a"`, several as `Unrecognized keys: "a", "b"`.
  return issues.map((issue) =>
    issue.code === 'unrecognized_keys'
      ? {
          ...issue,
          message: `Unrecognized key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map((key) => `"${key}"`).join(', ')}`,
        }
      : issue,
  );
}

function isUnion(error: ErrorObject): boolean {
  return error.keyword === 'anyOf' || error.keyword === 'oneOf';
}

function unionIssue(
  union: ErrorObject,
  errors: readonly ErrorObject[],
  path: PropertyKey[],
  data: unknown,
  root: JsonSchemaObject,
): Issue {
  const prefix = `${union.schemaPath}/`;
  const byBranch = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    if (error === union || !error.schemaPath.startsWith(prefix)) continue;
    const branch = error.schemaPath.slice(prefix.length).split('/')[0] ?? '';
    byBranch.set(branch, [...(byBranch.get(branch) ?? []), error]);
  }
  const branches = [...byBranch.values()].map((branchErrors) => issuesOf(branchErrors, data, root, union.instancePath));
  const message =
    branches.length === 0 && union.keyword === 'oneOf'
      ? 'Invalid input: matches more than one of the allowed shapes'
      : 'Invalid input';
  return { code: 'invalid_union', errors: branches, path, message, input: undefined } as Issue;
}

function plainIssue(error: ErrorObject, path: PropertyKey[], root: JsonSchemaObject): Issue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const types = (Array.isArray(params.type) ? params.type : [params.type]).map((type) => zodTypeName(String(type)));
      const received = receivedType(error.data);
      if (types.length === 1) {
        return invalidType(types[0] ?? 'value', path, received);
      }
      // A type list reads as a union of one-type branches, which is how the repair stage judges a union.
      const errors = types.map((type) => [invalidType(type, [], received)]);
      return {
        code: 'invalid_union',
        errors,
        path,
        message: `Invalid input: expected ${types.join(' | ')}, received ${received}`,
      } as Issue;
    }
    case 'required': {
      const missing = String(params.missingProperty);
      // The keyword may sit in a branch (`then: { required }`) that does not declare the property; the object does.
      const declared =
        propertyType(error.parentSchema, missing) ?? propertyType(objectSchemaAt(root, error.instancePath), missing);
      return invalidType(declared ? zodTypeName(declared) : 'value', [...path, missing], 'undefined');
    }
    case 'enum': {
      const values = (params.allowedValues as unknown[]).filter(isPrimitive);
      const options = values.map((value) => JSON.stringify(value)).join('|');
      return { code: 'invalid_value', values, path, message: `Invalid option: expected one of ${options}` } as Issue;
    }
    case 'const': {
      const value = params.allowedValue;
      return {
        code: 'invalid_value',
        values: isPrimitive(value) ? [value] : [],
        path,
        message: `Invalid input: expected ${JSON.stringify(value)}`,
      } as Issue;
    }
    default:
      return { code: 'custom', path, message: `Invalid input: ${error.message ?? `fails ${error.keyword}`}` } as Issue;
  }
}

function propertyType(schema: unknown, key: string): string | undefined {
  const type = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties?.[key]?.type;
  return typeof type === 'string' ? type : undefined;
}

/** The schema of the object at a JSON Pointer, followed through `properties` and `items` only. */
function objectSchemaAt(root: JsonSchemaObject, pointer: string): unknown {
  let node: unknown = root;
  for (const segment of pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer)) {
    const schema = node as { properties?: Record<string, unknown>; items?: unknown } | undefined;
    node = /^\d+$/.test(segment) && schema?.items !== undefined ? schema.items : schema?.properties?.[segment];
  }
  return node;
}

function invalidType(expected: string, path: PropertyKey[], received: string): Issue {
  return {
    code: 'invalid_type',
    expected,
    path,
    message: `Invalid input: expected ${expected}, received ${received}`,
  } as Issue;
}

// zod's names, which the repair stage compares against (`int` for an integer).
function zodTypeName(type: string): string {
  return type === 'integer' ? 'int' : type;
}

function receivedType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** A JSON Pointer below `base` as issue path segments: array positions as numbers, as zod reports them. */
function pathOf(pointer: string, base: string, data: unknown): PropertyKey[] {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer);
  const skip = base === '' ? 0 : base.slice(1).split('/').length;
  const path: PropertyKey[] = [];
  let node = data;
  segments.forEach((segment, index) => {
    const key = Array.isArray(node) ? Number(segment) : segment;
    if (index >= skip) path.push(key);
    node = typeof node === 'object' && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined;
  });
  return path;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
