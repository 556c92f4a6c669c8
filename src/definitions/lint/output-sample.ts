// A synthetic success result built from a declared output JSON Schema, for the format() parity check: every field
// present (optional ones too), every array with one item, and each string or number a distinctive value (`v7x`,
// 407) that the rendered text can be searched for. Booleans, nulls and constants carry no findable value and are
// not probed.
import type { JsonSchema } from '../schema/json-schema.js';

/** A value planted at a field path, and the spellings of it that count as rendered. */
export interface SampleProbe {
  readonly path: string;
  readonly needles: readonly string[];
}

export interface OutputSample {
  readonly value: Record<string, unknown>;
  readonly probes: readonly SampleProbe[];
}

/** How deep a recursive `$ref` is followed before the sample stops descending. */
const MAX_DEPTH = 8;

export function sampleOutput(declared: JsonSchema): OutputSample {
  const probes: SampleProbe[] = [];
  let counter = 0;

  const plant = (path: string, value: string | number, needles: readonly string[] = [String(value)]) => {
    probes.push({ path, needles });
    return value;
  };

  const sample = (schema: JsonSchema | undefined, path: string, depth: number): unknown => {
    if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return undefined;
    const target = resolveRef(declared, schema);
    if (target !== schema) return sample(target, path, depth + 1);
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum)) {
      const [first] = schema.enum as unknown[];
      return typeof first === 'string' || typeof first === 'number' ? plant(path, first) : first;
    }
    const branch = ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined)?.find((b) => b.type !== 'null');
    if (branch) return sample(branch, path, depth + 1);
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    counter += 1;
    switch (type) {
      case 'object':
        return sampleObject(schema, path, depth);
      case 'array': {
        const tuple = schema.prefixItems as JsonSchema[] | undefined;
        if (tuple) return tuple.map((item, index) => sample(item, `${path}[${index}]`, depth + 1));
        return [sample(schema.items as JsonSchema | undefined, `${path}[]`, depth + 1)];
      }
      case 'string':
        return sampleString(schema.format, path, counter);
      case 'number':
      case 'integer':
        return plant(path, 400 + counter);
      case 'boolean':
        return true;
      default:
        return type === undefined && schema.properties ? sampleObject(schema, path, depth) : null;
    }
  };

  const sampleObject = (schema: JsonSchema, path: string, depth: number): Record<string, unknown> => {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const value: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(properties)) {
      value[key] = sample(property, path ? `${path}.${key}` : key, depth + 1);
    }
    const extra = schema.additionalProperties;
    if (Object.keys(properties).length === 0 && extra && typeof extra === 'object') {
      value[`k${counter}x`] = sample(extra as JsonSchema, path ? `${path}.*` : '*', depth + 1);
    }
    return value;
  };

  const sampleString = (format: unknown, path: string, n: number): string => {
    const day = String(1 + (n % 28)).padStart(2, '0');
    switch (format) {
      case 'date-time':
        return plant(path, `2031-05-${day}T08:41:00.000Z`, [`2031-05-${day}`]) as string;
      case 'date':
        return plant(path, `2031-05-${day}`) as string;
      case 'email':
        return plant(path, `v${n}x@example.com`) as string;
      case 'uri':
      case 'url':
        return plant(path, `https://example.com/v${n}x`, [`v${n}x`]) as string;
      case 'uuid':
        return plant(path, `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`) as string;
      default:
        return plant(path, `v${n}x`) as string;
    }
  };

  const value = sample(declared, '', 0);
  return { value: (value ?? {}) as Record<string, unknown>, probes };
}

/** The schema a local `$ref` (`#/$defs/Note`) points at, or the schema itself. */
function resolveRef(root: JsonSchema, schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let target: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return (target as JsonSchema | undefined) ?? schema;
}
