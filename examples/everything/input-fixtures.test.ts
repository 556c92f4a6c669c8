// The fixtures that ask the client for input, driven by official SDK clients over both eras: on 2025-11-25 the SDK's
// handshake-era shim sends real sampling/elicitation/roots requests; on 2026-07-28 the client fulfils input_required rounds.
import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  InMemoryTransport,
  isInputRequiredResult,
} from '@modelcontextprotocol/client';
import { type ProtocolEra, stdio } from 'mcp-kiln';
import { createTestingModule, ENVELOPE_PROTOCOL_VERSION, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EverythingModule } from './everything.module.js';

const ALL_CAPABILITIES: ClientCapabilities = { sampling: {}, elicitation: {}, roots: {} };

/** What the test user types into any form, picked by field name. */
const FORM_ANSWERS: Record<string, string | number | boolean> = {
  name: 'Alice',
  username: 'alice',
  email: 'alice@example.com',
  ok: true,
  color: 'blue',
  context: 'release notes',
  proceed: true,
  value: 'anything',
};

interface Answering {
  readonly client: Client;
  /** Every request the server sent (2025) or embedded in an input_required round (2026), in order. */
  readonly asked: { method: string; params: unknown }[];
}

let app: TestingApp;
beforeAll(async () => {
  app = await createTestingModule({ imports: [EverythingModule] }).compile();
});
afterAll(() => app.close());

/** A client that declares `capabilities` and answers what they cover; `manual` hands input_required rounds back. */
async function connect(
  era: ProtocolEra,
  capabilities: ClientCapabilities,
  options: { manual?: boolean } = {},
): Promise<Answering> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await app.app.serve(stdio({ transport: serverTransport }));
  const client = new Client(
    { name: 'everything-test', version: '0.0.0' },
    {
      capabilities,
      ...(era === 'envelope' ? { versionNegotiation: { mode: { pin: ENVELOPE_PROTOCOL_VERSION } } } : {}),
      ...(options.manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  const asked: Answering['asked'] = [];
  if (capabilities.sampling) {
    client.setRequestHandler('sampling/createMessage', async ({ method, params }) => {
      asked.push({ method, params });
      return {
        role: 'assistant',
        content: { type: 'text', text: 'Paris' },
        model: 'test-model',
        stopReason: 'endTurn',
      };
    });
  }
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async ({ method, params }) => {
      asked.push({ method, params });
      const fields = Object.keys((params as ElicitRequestFormParams).requestedSchema.properties);
      const answers = fields.flatMap((field) => {
        const answer = FORM_ANSWERS[field];
        return answer === undefined ? [] : [[field, answer] as const];
      });
      return { action: 'accept', content: Object.fromEntries(answers) };
    });
  }
  if (capabilities.roots) {
    client.setRequestHandler('roots/list', async ({ method, params }) => {
      asked.push({ method, params });
      return { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] };
    });
  }
  await client.connect(clientTransport);
  return { client, asked };
}

const text = (result: CallToolResult) =>
  result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');

describe.each<ProtocolEra>(['handshake', 'envelope'])('input fixtures answered by a capable client, %s era', (era) => {
  let answering: Answering;
  beforeAll(async () => {
    answering = await connect(era, ALL_CAPABILITIES);
  });
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    answering.asked.length = 0;
    return text(await answering.client.callTool({ name, arguments: args }));
  };
  const askedParams = () => answering.asked.map(({ params }) => ({ ...(params as object), _meta: undefined }));

  it('test_sampling relays the prompt with maxTokens 100 and returns the reply', async () => {
    expect(await call('test_sampling', { prompt: 'Capital of France?' })).toBe('LLM response: Paris');
    expect(askedParams()).toEqual([
      expect.objectContaining({
        messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
        maxTokens: 100,
      }),
    ]);
  });

  it('test_elicitation asks for username and email and echoes the answer', async () => {
    expect(await call('test_elicitation', { message: 'Who are you?' })).toBe(
      'User response: action=accept, content={"username":"alice","email":"alice@example.com"}',
    );
    const [params] = askedParams() as ElicitRequestFormParams[];
    expect(params?.message).toBe('Who are you?');
    expect(params?.requestedSchema).toMatchObject({
      properties: { username: { type: 'string' }, email: { type: 'string' } },
      required: ['username', 'email'],
    });
  });

  it('test_elicitation_sep1034_defaults sends a default for every primitive type', async () => {
    expect(await call('test_elicitation_sep1034_defaults')).toMatch(/^Elicitation completed: action=accept, content=/);
    const [params] = askedParams() as ElicitRequestFormParams[];
    const defaults = Object.fromEntries(
      Object.entries(params?.requestedSchema.properties ?? {}).map(([key, field]) => [key, field.default]),
    );
    expect(defaults).toEqual({ name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true });
    expect(params?.requestedSchema.properties.age?.type).toBe('integer');
  });

  it('test_elicitation_sep1330_enums sends all five enum shapes', async () => {
    expect(await call('test_elicitation_sep1330_enums')).toMatch(/^Elicitation completed: action=accept/);
    const [params] = askedParams() as ElicitRequestFormParams[];
    expect(params?.requestedSchema.properties).toMatchObject({
      untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
      titledSingle: { type: 'string', oneOf: [{ const: 'value1', title: 'First Option' }, {}, {}] },
      legacyEnum: { enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
      untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
      titledMulti: { type: 'array', items: { anyOf: [{ const: 'value1', title: 'First Choice' }, {}, {}] } },
    });
  });

  it('completes every input_required fixture once its inputs are answered', async () => {
    expect(await call('test_input_required_result_elicitation')).toBe('Hello, Alice!');
    expect(await call('test_input_required_result_sampling')).toBe('Sampling result: Paris');
    expect(await call('test_input_required_result_list_roots')).toBe('Found 1 root(s): file:///test/root');
    expect(await call('test_input_required_result_request_state')).toContain('state-ok');
    expect(await call('test_input_required_result_multiple_inputs')).toBe('Name: Alice; Greeting: Paris; Roots: 1');
    expect(answering.asked.map(({ method }) => method).sort()).toEqual([
      'elicitation/create',
      'roots/list',
      'sampling/createMessage',
    ]);
    expect(await call('test_input_required_result_multi_round')).toBe('Multi-round complete for Alice who likes blue');
    expect(askedParams().map((params) => (params as ElicitRequestFormParams).message)).toEqual([
      'Step 1: What is your name?',
      'Step 2: What is your favorite color?',
    ]);
    expect(await call('test_input_required_result_capabilities')).toBe(
      'capabilities-ok: received elicit_input,sample_input',
    );
    expect(await call('test_missing_capability')).toBe('Success');
    expect(await call('test_streaming_elicitation')).toBe('Streaming complete');
  });

  it('completes the input_required prompt with the context the user gave', async () => {
    const prompt = await answering.client.getPrompt({ name: 'test_input_required_result_prompt' });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Use this context: release notes' } },
    ]);
  });
});

describe('a client without the sampling capability', () => {
  it('is refused with client_capability_missing on 2025-11-25', async () => {
    const { client } = await connect('handshake', {});
    const result = await client.callTool({ name: 'test_missing_capability', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: { data: { reason: 'client_capability_missing', requiredCapabilities: { sampling: {} } } },
    });
  });

  it('is refused with -32021 naming sampling on 2026-07-28', async () => {
    const { client } = await connect('envelope', {});
    await expect(client.callTool({ name: 'test_missing_capability', arguments: {} })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it('is asked only for sampling-free input by the capability-aware fixture', async () => {
    const { client } = await connect('envelope', { sampling: {} }, { manual: true });
    const round = await client.callTool(
      { name: 'test_input_required_result_capabilities', arguments: {} },
      { allowInputRequired: true },
    );
    expect(isInputRequiredResult(round) && Object.keys(round.inputRequests ?? {})).toEqual(['sample_input']);
  });
});

describe('input_required rounds on the 2026-07-28 wire', () => {
  let client: Client;
  beforeAll(async () => {
    ({ client } = await connect('envelope', ALL_CAPABILITIES, { manual: true }));
  });

  /** One round of a tool call, with the retry fields the SDK keeps out of its public param types. */
  function round(name: string, retry: { inputResponses?: unknown; requestState?: string } = {}) {
    const params = { name, arguments: {}, ...retry };
    return client.callTool(params, { allowInputRequired: true });
  }

  it('asks for user_name with the suite message and schema', async () => {
    const first = await round('test_input_required_result_elicitation');
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        user_name: {
          method: 'elicitation/create',
          params: {
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
      },
    });
  });

  it('asks again for a wrong key or a malformed answer, and ignores extra keys', async () => {
    const accept = (content: object) => ({ action: 'accept', content });
    for (const inputResponses of [{ wrong_key: accept({ data: 'wrong' }) }, { user_name: 12345 }, null]) {
      expect(isInputRequiredResult(await round('test_input_required_result_elicitation', { inputResponses }))).toBe(
        true,
      );
    }
    const extra = await round('test_input_required_result_elicitation', {
      inputResponses: { user_name: accept({ name: 'Alice' }), unknown_extra_key: accept({ foo: 'bar' }) },
    });
    expect(text(extra as CallToolResult)).toBe('Hello, Alice!');
  });

  it('moves through two rounds with a fresh requestState each, and a replayed state starts over', async () => {
    const first = await round('test_input_required_result_multi_round');
    if (!isInputRequiredResult(first)) throw new Error('expected an input_required round');
    const step1 = { step1: { action: 'accept', content: { name: 'Alice' } } };
    const second = await round('test_input_required_result_multi_round', {
      inputResponses: step1,
      requestState: first.requestState,
    });
    if (!isInputRequiredResult(second)) throw new Error('expected a second input_required round');
    expect(Object.keys(second.inputRequests ?? {})).toEqual(['step2']);
    expect(second.requestState).toEqual(expect.any(String));
    expect(second.requestState).not.toBe(first.requestState);

    const replay = await round('test_input_required_result_multi_round', {
      inputResponses: step1,
      requestState: first.requestState,
    });
    expect(isInputRequiredResult(replay) && Object.keys(replay.inputRequests ?? {})).toEqual(['step1']);

    const done = await round('test_input_required_result_multi_round', {
      inputResponses: { step2: { action: 'accept', content: { color: 'blue' } } },
      requestState: second.requestState,
    });
    expect(text(done as CallToolResult)).toBe('Multi-round complete for Alice who likes blue');
  });

  it('never completes on an altered requestState', async () => {
    const first = await round('test_input_required_result_tampered_state');
    if (!isInputRequiredResult(first)) throw new Error('expected an input_required round');
    const tampered = await round('test_input_required_result_tampered_state', {
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      requestState: `${first.requestState}-TAMPERED`,
    });
    expect(isInputRequiredResult(tampered)).toBe(true);
  });
});

describe('the tampered-state fixture with MCP_REQUEST_STATE_KEY set, as the conformance run serves it', () => {
  const name = 'test_input_required_result_tampered_state';
  const confirmed = { confirm: { action: 'accept', content: { ok: true } } };
  const manual = { allowInputRequired: true } as const;
  let sealed: TestingApp;
  let client: Client;
  beforeAll(async () => {
    sealed = await createTestingModule({ imports: [EverythingModule] }).compile({
      env: { MCP_REQUEST_STATE_KEY: 'everything-fixture-request-state-key-000' },
    });
    client = await sealed.connectClient({ era: 'envelope', capabilities: ALL_CAPABILITIES });
  });
  afterAll(() => sealed.close());

  it('answers an altered state with a JSON-RPC -32602 error, and completes on the state it sealed', async () => {
    const first = await client.callTool({ name, arguments: {} }, manual);
    if (!isInputRequiredResult(first) || first.requestState === undefined) throw new Error('expected a sealed round');
    expect(first.requestState).toMatch(/^v1\./);
    const tampered = { name, arguments: {}, inputResponses: confirmed, requestState: `${first.requestState}-TAMPERED` };
    await expect(client.callTool(tampered, manual)).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'invalid_request_state' },
    });
    const honest = { name, arguments: {}, inputResponses: confirmed, requestState: first.requestState };
    expect(text((await client.callTool(honest, manual)) as CallToolResult)).toBe('integrity-ok: state verified');
  });
});
