// The conformance fixtures served by the real EverythingModule to official SDK clients on both protocol eras: the
// payloads the suite's tools-*, resources-*, prompts-* and completion-complete scenarios check.
import type { Client } from '@modelcontextprotocol/client';
import type { ProtocolEra } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EverythingModule } from './everything.module.js';
import { TEST_PNG_BASE64, TEST_WAV_BASE64 } from './media.js';

const PNG_CONTENT = { type: 'image', data: TEST_PNG_BASE64, mimeType: 'image/png' };

/** Every tool name the suite's server scenarios look up, and the header-parameter tool the custom-header one finds. */
const FIXTURE_TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_tool_with_logging',
  'test_error_handling',
  'test_tool_with_progress',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'test_missing_capability',
  'test_streaming_elicitation',
  'test_logging_tool',
  'test_trigger_tool_change',
  'test_trigger_prompt_change',
  'test_input_required_result_elicitation',
  'test_input_required_result_sampling',
  'test_input_required_result_list_roots',
  'test_input_required_result_request_state',
  'test_input_required_result_multiple_inputs',
  'test_input_required_result_multi_round',
  'test_input_required_result_tampered_state',
  'test_input_required_result_capabilities',
  'json_schema_2020_12_tool',
  'test_header_parameters',
  'test_reconnection',
  // The Tasks extension's fixtures.
  'greet',
  'slow_compute',
  'failing_job',
  'protocol_error_job',
  'confirm_delete',
  'multi_input',
  'test_tool_with_task',
];

/** Not conformance fixtures: the tools showing a guard, an interceptor and an exception filter. */
const SHELF_TOOLS = ['kiln_read_shelf', 'kiln_set_maintenance'];

describe('media fixtures', () => {
  it('is a decodable 1x1 PNG', () => {
    const png = Buffer.from(TEST_PNG_BASE64, 'base64');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1, 1]);
    expect(png.toString('ascii', png.length - 8, png.length - 4)).toBe('IEND');
  });

  it('is a PCM WAV whose header sizes match its bytes', () => {
    const wav = Buffer.from(TEST_WAV_BASE64, 'base64');
    expect([wav.toString('ascii', 0, 4), wav.toString('ascii', 8, 12), wav.toString('ascii', 36, 40)]).toEqual([
      'RIFF',
      'WAVE',
      'data',
    ]);
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.readUInt16LE(20)).toBe(1);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
  });
});

describe.each<ProtocolEra>(['handshake', 'envelope'])('everything fixtures, %s era', (era) => {
  let app: TestingApp;
  let client: Client;

  beforeAll(async () => {
    app = await createTestingModule({ imports: [EverythingModule] }).compile();
    client = await app.connectClient({ era });
  });
  afterAll(() => app.close());

  const call = (name: string) => client.callTool({ name, arguments: {} });

  it('lists every tool with a description and an object input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...FIXTURE_TOOLS, ...SHELF_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.name).toMatch(/^[A-Za-z0-9_./-]{1,64}$/);
    }
  });

  it('advertises the raw JSON Schema 2020-12 input verbatim', async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === 'json_schema_2020_12_tool')?.inputSchema as Record<string, unknown>;
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { address: { $anchor: 'addressDef', type: 'object' } },
      properties: { address: { $ref: '#/$defs/address' } },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema conditional keyword; its value is no function.
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    });
  });

  it('validates the raw schema per call: a conditional requirement, then a valid contact', async () => {
    const missingPhone = await client.callTool({
      name: 'json_schema_2020_12_tool',
      arguments: { name: 'Ada', contactMethod: 'phone', email: 'ada@example.com' },
    });
    expect(missingPhone.isError).toBe(true);
    expect(missingPhone.structuredContent).toMatchObject({
      error: { code: -32602, data: { reason: 'invalid_arguments', issues: [{ path: 'phone' }] } },
    });
    const ok = await client.callTool({
      name: 'json_schema_2020_12_tool',
      arguments: { name: 'Ada', contactMethod: 'phone', phone: '+44 20 7946 0000' },
    });
    expect(ok.content).toEqual([{ type: 'text', text: 'Contact Ada by phone +44 20 7946 0000.' }]);
  });

  it('advertises the header parameters with x-mcp-header', async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === 'test_header_parameters')?.inputSchema;
    expect(schema?.properties).toMatchObject({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      shard: { type: 'integer', 'x-mcp-header': 'Shard' },
    });
    expect((await client.callTool({ name: 'test_header_parameters', arguments: { region: 'eu' } })).content).toEqual([
      { type: 'text', text: 'Looked up "" in region eu.' },
    ]);
  });

  it('returns the simple text', async () => {
    expect((await call('test_simple_text')).content).toEqual([
      { type: 'text', text: 'This is a simple text response for testing.' },
    ]);
  });

  it('returns the image alone', async () => {
    expect((await call('test_image_content')).content).toEqual([PNG_CONTENT]);
  });

  it('returns the audio alone', async () => {
    expect((await call('test_audio_content')).content).toEqual([
      { type: 'audio', data: TEST_WAV_BASE64, mimeType: 'audio/wav' },
    ]);
  });

  it('returns the embedded resource', async () => {
    expect((await call('test_embedded_resource')).content).toEqual([
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ]);
  });

  it('returns text, image and resource in order', async () => {
    expect((await call('test_multiple_content_types')).content).toEqual([
      { type: 'text', text: 'Multiple content types test:' },
      PNG_CONTENT,
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      },
    ]);
  });

  it('reports the intentional failure as an isError result led by a text block', async () => {
    const result = await call('test_error_handling');
    expect(result.isError).toBe(true);
    expect(result.content[0]).toEqual({
      type: 'text',
      text: expect.stringContaining('This tool intentionally returns an error for testing'),
    });
  });

  it('reports progress 0, 50, 100 of 100 on the call', async () => {
    const seen: { progress: number; total?: number }[] = [];
    await client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      { onprogress: ({ progress, total }) => void seen.push({ progress, total }) },
    );
    expect(seen).toEqual([
      { progress: 0, total: 100 },
      { progress: 50, total: 100 },
      { progress: 100, total: 100 },
    ]);
  });

  it('lists the fixed resources with names and descriptions, the skill manifest, and the templates', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => [r.uri, r.name])).toEqual([
      ['test://static-text', 'static-text'],
      ['test://static-binary', 'static-binary'],
      ['test://watched-resource', 'watched-resource'],
      ['skill://everything-tour/SKILL.md', 'everything-tour'],
    ]);
    for (const resource of resources) expect(resource.description).toBeTruthy();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({
        uriTemplate: 'test://template/{id}/data',
        name: 'template',
        mimeType: 'application/json',
      }),
      expect.objectContaining({ uriTemplate: 'skill://{+path}', name: 'skills' }),
    ]);
  });

  it('reads the static text and binary resources', async () => {
    expect((await client.readResource({ uri: 'test://static-text' })).contents).toEqual([
      { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
    ]);
    expect((await client.readResource({ uri: 'test://static-binary' })).contents).toEqual([
      { uri: 'test://static-binary', mimeType: 'image/png', blob: TEST_PNG_BASE64 },
    ]);
  });

  it('reads the template with its id substituted', async () => {
    const { contents } = await client.readResource({ uri: 'test://template/123/data' });
    expect(contents).toEqual([
      { uri: 'test://template/123/data', mimeType: 'application/json', text: expect.any(String) },
    ]);
    expect(JSON.parse((contents[0] as { text: string }).text)).toEqual({
      id: '123',
      templateTest: true,
      data: 'Data for ID: 123',
    });
  });

  it('lists every prompt with a description, arg1 and arg2 required', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
      'test_input_required_result_prompt',
    ]);
    for (const prompt of prompts) expect(prompt.description).toBeTruthy();
    expect(prompts.find((p) => p.name === 'test_prompt_with_arguments')?.arguments).toEqual([
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ]);
  });

  it('gets the simple prompt and the prompt with arguments', async () => {
    expect((await client.getPrompt({ name: 'test_simple_prompt' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ]);
    const withArgs = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'first', arg2: 'second' },
    });
    expect(withArgs.messages).toEqual([
      { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='first', arg2='second'" } },
    ]);
  });

  it('gets the prompts with an embedded resource and with an image', async () => {
    const embedded = await client.getPrompt({
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' },
    });
    expect(embedded.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: 'test://example-resource',
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ]);
    expect((await client.getPrompt({ name: 'test_prompt_with_image' })).messages).toEqual([
      { role: 'user', content: PNG_CONTENT },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ]);
  });

  it('completes arg1 of test_prompt_with_arguments by prefix', async () => {
    const { completion } = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(completion.values).toEqual(['paris', 'park', 'party']);
    const none = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg2', value: 'par' },
    });
    expect(none.completion.values).toEqual([]);
  });
});
