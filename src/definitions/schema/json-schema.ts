// Zod → JSON Schema, once per definition at boot. The advertised schemas drop zod's `$schema` key: 2020-12 is the
// MCP default dialect, and a smaller tools/list is cheaper for every client.
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** The input schema as advertised: always `type: "object"`; a discriminated union becomes `oneOf` branches. */
export function advertisedInputSchema(schema: z.ZodType): JsonSchema {
  const json = toJsonSchema(schema, 'input');
  if (json.type === 'object') return json;
  const branches = (json.oneOf ?? json.anyOf) as JsonSchema[] | undefined;
  const { oneOf: _o, anyOf: _a, ...rest } = json;
  return { type: 'object', ...rest, oneOf: branches ?? [] };
}

/** Paths (`a.b`, `items[].c`) of object properties that carry no description. */
export function undescribedFields(json: JsonSchema, path = ''): string[] {
  const missing: string[] = [];
  const properties = json.properties as Record<string, JsonSchema> | undefined;
  for (const [key, property] of Object.entries(properties ?? {})) {
    const here = path ? `${path}.${key}` : key;
    if (typeof property.description !== 'string' || property.description.trim() === '') missing.push(here);
    missing.push(...undescribedFields(property, here));
    const items = property.items as JsonSchema | undefined;
    if (items && typeof items === 'object') missing.push(...undescribedFields(items, `${here}[]`));
  }
  for (const branch of [...((json.oneOf ?? []) as JsonSchema[]), ...((json.anyOf ?? []) as JsonSchema[])]) {
    missing.push(...undescribedFields(branch, path));
  }
  return [...new Set(missing)];
}
