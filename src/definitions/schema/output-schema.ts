// The advertised outputSchema: the effective schema (output ∪ enrichment, zod's or a raw JSON Schema) widened so a
// failure envelope `{ error }` validates too. Clients that validate structuredContent before reading isError would
// otherwise reject every tool error with -32602 (add-tool.md § "The advertised outputSchema is widened").
import type { ErrorContract } from '../../../decorators/types.js';
import type { JsonSchema } from './json-schema.js';

export function errorEnvelopeSchema(contract: ErrorContract): JsonSchema {
  const reasons = contract.map((entry) => entry.reason);
  return {
    type: 'object',
    description: 'Present only when the call failed: what went wrong and what to do next.',
    properties: {
      code: { type: 'integer', description: 'JSON-RPC error code.' },
      message: { type: 'string', description: 'What went wrong.' },
      data: {
        type: 'object',
        properties: {
          reason: {
            type: 'string',
            description:
              reasons.length > 0
                ? `Machine-readable reason. Declared by this tool: ${reasons.join(', ')}; services may add others.`
                : 'Machine-readable reason, when one applies.',
            ...(reasons.length > 0 ? { examples: reasons } : {}),
          },
          recovery: {
            type: 'object',
            properties: { hint: { type: 'string', description: 'The next step to take.' } },
            required: ['hint'],
          },
          requestId: { type: 'string', description: 'Quote this when reporting the failure.' },
        },
      },
    },
    required: ['code', 'message'],
  };
}

// Root keywords that constrain which success fields are present. They move into the success branch, so an `{ error }`
// envelope is not held to them; the rest (properties, additionalProperties, annotations, $defs) stays at the root.
const SUCCESS_ONLY_KEYWORDS = [
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'minProperties',
  'maxProperties',
];

export function widenOutputSchema(effective: JsonSchema, contract: ErrorContract): JsonSchema {
  const required = (effective.required as string[] | undefined) ?? [];
  const rest: JsonSchema = {};
  const constraints: JsonSchema = {};
  for (const [keyword, value] of Object.entries(effective)) {
    if (keyword === 'required') continue;
    if (SUCCESS_ONLY_KEYWORDS.includes(keyword)) constraints[keyword] = value;
    else rest[keyword] = value;
  }
  const success: JsonSchema = { not: { required: ['error'] } };
  if (required.length > 0) success.required = required;
  if (Object.keys(constraints).length > 0) success.allOf = [constraints];
  return {
    ...rest,
    type: 'object',
    properties: { ...(effective.properties as JsonSchema), error: errorEnvelopeSchema(contract) },
    anyOf: [success, { required: ['error'] }],
  };
}

/** A raw output schema with the enrichment block's properties (and required keys) merged into its root. */
export function withEnrichment(declared: JsonSchema, enrichment: JsonSchema | undefined): JsonSchema {
  if (!enrichment) return declared;
  const required = [
    ...((declared.required as string[] | undefined) ?? []),
    ...((enrichment.required as string[]) ?? []),
  ];
  return {
    ...declared,
    properties: { ...(declared.properties as JsonSchema), ...(enrichment.properties as JsonSchema) },
    ...(required.length > 0 ? { required } : {}),
  };
}
