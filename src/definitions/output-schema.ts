// The advertised outputSchema: the strict effective schema (output ∪ enrichment) widened so a failure envelope
// `{ error }` validates too. Clients that validate structuredContent before reading isError would otherwise reject
// every tool error with -32602 (add-tool.md § "The advertised outputSchema is widened").
import type { ErrorContract } from '../../decorators/types.js';
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

export function widenOutputSchema(effective: JsonSchema, contract: ErrorContract): JsonSchema {
  const required = (effective.required as string[] | undefined) ?? [];
  const { required: _required, ...rest } = effective;
  const success: JsonSchema = { not: { required: ['error'] } };
  if (required.length > 0) success.required = required;
  return {
    ...rest,
    type: 'object',
    properties: { ...(effective.properties as JsonSchema), error: errorEnvelopeSchema(contract) },
    anyOf: [success, { required: ['error'] }],
  };
}
