// Tools whose schema is the point: a raw JSON Schema 2020-12 input advertised verbatim (json-schema-2020-12) and
// header parameters mirrored into Mcp-Param-* headers (http-custom-header-server-validation).
import { headerParam, Tool } from 'mcp-kiln';
import { z } from 'zod';

@Tool('json_schema_2020_12_tool', {
  description:
    'Conformance fixture: takes a contact whose input is a raw JSON Schema 2020-12 ($defs with an $anchor, $ref, ' +
    'allOf/anyOf, if/then/else, additionalProperties false) and echoes what it received.',
  annotations: { readOnlyHint: true },
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
      address: {
        $anchor: 'addressDef',
        type: 'object',
        properties: {
          street: { type: 'string', description: 'Street and number.' },
          city: { type: 'string', description: 'City.' },
        },
      },
    },
    properties: {
      name: { type: 'string', description: 'Who to contact.' },
      address: { $ref: '#/$defs/address', description: 'Where they live.' },
      contactMethod: { type: 'string', enum: ['phone', 'email'], description: 'How to reach them.' },
      phone: { type: 'string', description: 'Phone number; required when contactMethod is phone.' },
      email: { type: 'string', description: 'Email address; required unless contactMethod is phone.' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema conditional keyword; its value is no function.
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  },
})
export class JsonSchemaTool {
  handle(input: { name?: string; contactMethod?: 'phone' | 'email'; phone?: string; email?: string }) {
    const via = input.contactMethod === 'phone' ? `phone ${input.phone}` : `email ${input.email}`;
    return `Contact ${input.name ?? 'someone'} by ${via}.`;
  }
}

const RoutedLookup = z.object({
  region: headerParam(z.string(), 'Region').describe('Deployment region; mirrored into the Mcp-Param-Region header.'),
  shard: headerParam(z.int().min(0), 'Shard').optional().describe('Shard to read from; mirrored into Mcp-Param-Shard.'),
  query: z.string().optional().describe('What to look up.'),
});

@Tool('test_header_parameters', {
  description:
    'Conformance fixture: a lookup whose region (and shard) a gateway can route on without reading the body: ' +
    'clients mirror them into Mcp-Param-Region and Mcp-Param-Shard. Echoes where the lookup was routed.',
  annotations: { readOnlyHint: true },
  input: RoutedLookup,
})
export class HeaderParametersTool {
  handle(input: z.output<typeof RoutedLookup>) {
    const shard = input.shard === undefined ? '' : `, shard ${input.shard}`;
    return `Looked up ${JSON.stringify(input.query ?? '')} in region ${input.region}${shard}.`;
  }
}

export const SchemaTools = [JsonSchemaTool, HeaderParametersTool];
