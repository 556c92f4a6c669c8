// What the pipeline fixture advertises, over real stdio in both eras: tools/list (strict input, widened output, no
// alias keys, a discriminated-union root, no disabled tool), its resource template and its prompt.
import { ProtocolError, type Tool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINE_FIXTURE } from './helpers/built-servers.js';
import { type ConnectedServer, connectServer } from './helpers/connected-server.js';
import { ERAS } from './helpers/eras.js';
import {
  expectStrictInputSchema,
  expectWidenedOutputSchema,
  findTool,
  type JsonObject,
} from './helpers/tool-results.js';

const LISTED_TOOLS = [
  'fixture_echo_arguments',
  'fixture_lookup_record',
  'fixture_render_chart',
  'fixture_search_items',
  'fixture_fail_unexpectedly',
  'fixture_break_output',
  'fixture_reserve_seat',
  'fixture_log_levels',
  'fixture_run_steps',
];

describe.each(ERAS)('pipeline fixture definitions ($era era)', (eraCase) => {
  let server: ConnectedServer;
  let tools: Tool[];

  beforeAll(async () => {
    server = await connectServer(PIPELINE_FIXTURE, eraCase);
    tools = (await server.client.listTools()).tools;
  });
  afterAll(() => server?.close());

  it('lists every enabled tool and leaves the @Disabled one out', () => {
    expect(tools.map((t) => t.name)).toEqual(LISTED_TOOLS);
  });

  it('advertises a strict inputSchema and a widened outputSchema for every tool', () => {
    for (const tool of tools) expectStrictInputSchema(tool);
    expectWidenedOutputSchema(findTool(tools, 'fixture_echo_arguments'), ['received']);
    expectWidenedOutputSchema(findTool(tools, 'fixture_lookup_record'), ['mode', 'received']);
    expectWidenedOutputSchema(findTool(tools, 'fixture_render_chart'), ['width', 'height']);
    expectWidenedOutputSchema(findTool(tools, 'fixture_search_items'), [
      'items',
      'effectiveQuery',
      'totalCount',
      'sortOrder',
      'sourceName',
      'appliedFilters',
    ]);
    expectWidenedOutputSchema(findTool(tools, 'fixture_reserve_seat'), ['seat']);
  });

  it("names the contract's reasons in the advertised error envelope without constraining them", () => {
    const schema = findTool(tools, 'fixture_reserve_seat').outputSchema as JsonObject;
    const reason = (schema.properties as JsonObject).error as { properties: { data: { properties: JsonObject } } };
    expect(reason.properties.data.properties.reason).toEqual({
      type: 'string',
      description: 'Machine-readable reason. Declared by this tool: sold_out; services may add others.',
      examples: ['sold_out'],
    });
  });

  it('advertises no alias key, declared or case-styled', () => {
    const inputSchema = findTool(tools, 'fixture_echo_arguments').inputSchema as JsonObject;
    expect(Object.keys(inputSchema.properties as JsonObject)).toEqual([
      'query',
      'maxResults',
      'tags',
      'filter',
      'stationId',
    ]);
    expect(inputSchema.required).toEqual(['query']);
    const text = JSON.stringify(inputSchema);
    for (const alias of ['search_text', 'max_results']) expect(text).not.toContain(alias);
  });

  it('advertises a discriminated-union input as an object root with oneOf branches', () => {
    expect(findTool(tools, 'fixture_lookup_record').inputSchema).toEqual({
      type: 'object',
      oneOf: [
        {
          type: 'object',
          properties: {
            mode: { type: 'string', const: 'byId', description: 'Look up by exact id' },
            id: { type: 'string', description: 'Record id' },
          },
          required: ['mode', 'id'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            mode: { type: 'string', const: 'byName', description: 'Search by name' },
            name: { type: 'string', description: 'Name fragment' },
            fuzzy: { type: 'boolean', default: false, description: 'Whether to match loosely' },
          },
          required: ['mode', 'name'],
          additionalProperties: false,
        },
      ],
    });
  });

  it('answers a call to the @Disabled tool as an unknown tool', async () => {
    const call = server.client.callTool({ name: 'fixture_retired_export', arguments: { format: 'csv' } });
    await expect(call).rejects.toBeInstanceOf(ProtocolError);
    await expect(call).rejects.toMatchObject({
      code: -32602,
      message: 'Unknown tool: fixture_retired_export.',
      data: { reason: 'unknown_tool', requestId: expect.any(String) },
    });
  });

  it("lists the template's concrete resources and the template itself", async () => {
    expect((await server.client.listResources()).resources).toEqual([
      { uri: 'fixture://items/alpha', name: 'alpha', mimeType: 'text/plain' },
      { uri: 'fixture://items/alpine', name: 'alpine', mimeType: 'text/plain' },
    ]);
    expect((await server.client.listResourceTemplates()).resourceTemplates).toEqual([
      {
        uriTemplate: 'fixture://items/{itemId}',
        name: 'item',
        title: 'Catalogue item',
        description: 'One catalogue item as plain text.',
        mimeType: 'text/plain',
      },
    ]);
  });

  it('reads a templated resource as text', async () => {
    expect(await server.client.readResource({ uri: 'fixture://items/alps' })).toMatchObject({
      contents: [{ uri: 'fixture://items/alps', mimeType: 'text/plain', text: 'Item alps (in the catalogue)' }],
    });
  });

  it('rejects a URI whose template variable fails its params schema, and one nothing matches, with -32602', async () => {
    await expect(server.client.readResource({ uri: 'fixture://items/ALPS1' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid URI for resource item'),
      data: { uri: 'fixture://items/ALPS1', requestId: expect.any(String) },
    });
    await expect(server.client.readResource({ uri: 'fixture://orders/1' })).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'fixture://orders/1' },
    });
  });

  it('completes the template variable', async () => {
    const { completion } = await server.client.complete({
      ref: { type: 'ref/resource', uri: 'fixture://items/{itemId}' },
      argument: { name: 'itemId', value: 'alp' },
    });
    expect(completion).toEqual({ values: ['alpha', 'alpine', 'alps'], total: 3, hasMore: false });
  });

  it('lists the prompt with its required argument, gets it, and rejects a call without it', async () => {
    expect((await server.client.listPrompts()).prompts).toEqual([
      {
        name: 'fixture_review_item',
        title: 'Review item',
        description: 'Ask for a review of one catalogue item.',
        arguments: [
          { name: 'itemId', description: 'Item to review', required: true },
          { name: 'tone', description: 'Review tone: brief or thorough', required: false },
        ],
      },
    ]);
    const prompt = await server.client.getPrompt({
      name: 'fixture_review_item',
      arguments: { itemId: 'alps', tone: 'thorough' },
    });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Write a thorough review of item alps.' } },
    ]);
    await expect(
      server.client.getPrompt({ name: 'fixture_review_item', arguments: { tone: 'brief' } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('itemId'),
      data: { reason: 'invalid_arguments' },
    });
  });

  it('completes the prompt argument and rejects completion for an unknown prompt', async () => {
    const { completion } = await server.client.complete({
      ref: { type: 'ref/prompt', name: 'fixture_review_item' },
      argument: { name: 'tone', value: 't' },
    });
    expect(completion.values).toEqual(['thorough']);
    await expect(
      server.client.complete({
        ref: { type: 'ref/prompt', name: 'fixture_nothing' },
        argument: { name: 'x', value: '' },
      }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
