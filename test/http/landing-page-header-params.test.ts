// The landing page shows which request header a header parameter (x-mcp-header) mirrors, beside its other facts.
import { describe, expect, it } from 'vitest';
import { inputSchemaView } from '../../modules/http/landing-page/schema-rows.js';

describe('landing page: header parameters', () => {
  it('lists the Mcp-Param header of a designated field, nested ones included', () => {
    const view = inputSchemaView({
      type: 'object',
      properties: {
        region: { type: 'string', description: 'Region.', 'x-mcp-header': 'Region' },
        routing: {
          type: 'object',
          description: 'Routing.',
          properties: { shard: { type: 'integer', description: 'Shard.', 'x-mcp-header': 'Shard-Id' } },
        },
        query: { type: 'string', description: 'Query.' },
      },
    });
    expect(view.rows.map((row) => [row.path.join('.'), row.facts])).toEqual([
      ['region', [{ label: 'Header', values: ['Mcp-Param-Region'] }]],
      ['routing', []],
      ['routing.shard', [{ label: 'Header', values: ['Mcp-Param-Shard-Id'] }]],
      ['query', []],
    ]);
  });
});
