// ctx.requestInput over real stdio with the official SDK client, in both eras: a 2026-07-28 client fulfils each
// input_required round and retries; a 2025 client is served by the SDK's handshake-era shim (real elicitation/create,
// sampling/createMessage and roots/list requests). A client without the capability gets the era's refusal.
import { join } from 'node:path';
import type {
  ClientCapabilities,
  CreateMessageRequest,
  ElicitRequest,
  ElicitResult,
  JSONRPCMessage,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SUMMARY_STATE } from './fixtures/input-required/round-trip-tools.js';
import { REPO_ROOT } from './helpers/built-servers.js';
import { type ConnectedServer, connectServer, waitForProcessLog } from './helpers/connected-server.js';
import { ERAS, type EraCase } from './helpers/eras.js';
import { contentTexts, failureEnvelope } from './helpers/tool-results.js';

const INPUT_FIXTURE = join(REPO_ROOT, 'dist/test/integration/fixtures/input-required-fixture.js');
const HANDSHAKE = ERAS.find((e) => e.era === 'handshake') as EraCase;
const ENVELOPE = ERAS.find((e) => e.era === 'envelope') as EraCase;
const CAPABLE: ClientCapabilities = { elicitation: {}, sampling: {}, roots: {} };
const ROOTS = [
  { uri: 'file:///work/notes', name: 'notes' },
  { uri: 'file:///work/site', name: 'site' },
];

/** How each era carried a round: the shim's server→client request (2025), or an input_required result (2026). */
function roundsOnWire(wire: readonly JSONRPCMessage[], era: EraCase['era'], method: string): number {
  if (era === 'handshake') return wire.filter((m) => 'method' in m && 'id' in m && m.method === method).length;
  return wire.filter((m) => {
    const result = 'result' in m ? (m.result as Record<string, unknown>) : undefined;
    const requests = result?.resultType === 'input_required' ? (result.inputRequests as Record<string, unknown>) : {};
    return Object.values(requests).some((request) => (request as { method: string }).method === method);
  }).length;
}

describe.each(ERAS)('a client that can answer ($era era)', (eraCase) => {
  let server: ConnectedServer;
  let elicitations: ElicitRequest['params'][];
  let samplings: CreateMessageRequest['params'][];
  let nextAnswer: ElicitResult;

  beforeAll(async () => {
    server = await connectServer(INPUT_FIXTURE, eraCase, { MCP_LOG_LEVEL: 'debug' }, CAPABLE);
    server.client.setRequestHandler('elicitation/create', async (request) => {
      elicitations.push(request.params);
      return nextAnswer;
    });
    server.client.setRequestHandler('sampling/createMessage', async (request) => {
      samplings.push(request.params);
      return { role: 'assistant', content: { type: 'text', text: 'Short.' }, model: 'fixture-model' };
    });
    server.client.setRequestHandler('roots/list', async () => ({ roots: ROOTS }));
  });
  beforeEach(() => {
    elicitations = [];
    samplings = [];
    nextAnswer = { action: 'accept', content: { name: 'Ada' } };
    server.wire.length = 0;
  });
  afterAll(() => server?.close());

  it('asks for a name (form mode), then completes with the answer', async () => {
    const result = await server.client.callTool({ name: 'fixture_greet', arguments: {} });
    expect(result.isError).toBeUndefined();
    expect(contentTexts(result)).toEqual(['Hello, Ada!']);
    expect(elicitations).toEqual([
      expect.objectContaining({
        mode: 'form',
        message: 'What is your name?',
        requestedSchema: expect.objectContaining({ required: ['name'] }),
      }),
    ]);
    expect(roundsOnWire(server.wire, eraCase.era, 'elicitation/create')).toBe(1);
  });

  it('never asks when the arguments already carry the answer', async () => {
    const result = await server.client.callTool({ name: 'fixture_greet', arguments: { name: 'Grace' } });
    expect(contentTexts(result)).toEqual(['Hello, Grace!']);
    expect(elicitations).toEqual([]);
  });

  it('logs nothing for a round that asks; a declined prompt ends the call as a validation failure', async () => {
    await server.client.callTool({ name: 'fixture_greet', arguments: {} });
    nextAnswer = { action: 'decline' };
    const declined = failureEnvelope(await server.client.callTool({ name: 'fixture_greet', arguments: {} }));
    expect(declined).toMatchObject({ code: -32008, message: 'The user chose decline.' });
    // The declined call's notice line is written after everything the asking rounds could have logged.
    await waitForProcessLog(server, (line) => line.requestId === declined.data.requestId);
    const loud = server.processLog().filter((line) => ['notice', 'warning', 'error'].includes(String(line.level)));
    expect(loud).toEqual([expect.objectContaining({ level: 'notice', requestId: declined.data.requestId })]);
  });

  it('runs a sampling round, and the retry carries the requestState back', async () => {
    const result = await server.client.callTool({ name: 'fixture_summarize', arguments: { text: 'A long story.' } });
    expect(contentTexts(result)).toEqual([`Summary: Short. (state ${SUMMARY_STATE})`]);
    expect(samplings).toEqual([
      expect.objectContaining({
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: A long story.' } }],
        maxTokens: 50,
      }),
    ]);
    expect(roundsOnWire(server.wire, eraCase.era, 'sampling/createMessage')).toBe(1);
  });

  it('runs a roots round', async () => {
    const result = await server.client.callTool({ name: 'fixture_list_roots', arguments: {} });
    expect(contentTexts(result)).toEqual(['Roots: file:///work/notes, file:///work/site']);
    expect(roundsOnWire(server.wire, eraCase.era, 'roots/list')).toBe(1);
  });

  it('asks from a resource read and a prompt get too', async () => {
    expect(await server.client.readResource({ uri: 'fixture://greeting' })).toMatchObject({
      contents: [{ uri: 'fixture://greeting', mimeType: 'text/plain', text: 'Hello, Ada!' }],
    });
    const prompt = await server.client.getPrompt({ name: 'fixture_greeting', arguments: {} });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Greet Ada warmly.' } }]);
    expect(elicitations).toHaveLength(2);
  });
});

describe('a 2025-era client that declared no elicitation', () => {
  let server: ConnectedServer;
  beforeAll(async () => {
    server = await connectServer(INPUT_FIXTURE, HANDSHAKE, {}, { sampling: {} });
  });
  afterAll(() => server?.close());

  it('gets the client_capability_missing envelope naming elicitation.form, with the tool’s fallback hint', async () => {
    const error = failureEnvelope(await server.client.callTool({ name: 'fixture_greet', arguments: {} }));
    expect(error).toEqual({
      code: -32600,
      message:
        "Cannot ask for input 'name' (elicitation/create): the client did not declare the `elicitation.form` capability.",
      data: {
        reason: 'client_capability_missing',
        requiredCapabilities: { elicitation: { form: {} } },
        recovery: {
          hint: 'Reconnect with a client that declares the `elicitation.form` capability. Or call again with name supplied.',
        },
        requestId: error.data.requestId,
      },
    });
    const [line] = await waitForProcessLog(server, (l) => l.requestId === error.data.requestId);
    expect(line).toMatchObject({ level: 'notice', tool: 'fixture_greet', reason: 'client_capability_missing' });
  });

  it('gets the same refusal as a JSON-RPC error from a resource read and a prompt get', async () => {
    const refusal = {
      code: -32600,
      data: {
        reason: 'client_capability_missing',
        recovery: { hint: 'Reconnect with a client that declares the `elicitation.form` capability.' },
      },
    };
    await expect(server.client.readResource({ uri: 'fixture://greeting' })).rejects.toMatchObject(refusal);
    await expect(server.client.getPrompt({ name: 'fixture_greeting', arguments: {} })).rejects.toMatchObject(refusal);
  });

  it('is still served a round it declared (sampling)', async () => {
    server.client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'Fine.' },
      model: 'fixture-model',
    }));
    const result = await server.client.callTool({ name: 'fixture_summarize', arguments: { text: 'x' } });
    expect(contentTexts(result)).toEqual([`Summary: Fine. (state ${SUMMARY_STATE})`]);
  });
});

describe('a 2026-07-28 client that declared no elicitation', () => {
  let server: ConnectedServer;
  beforeAll(async () => {
    server = await connectServer(INPUT_FIXTURE, ENVELOPE, {}, { sampling: {} });
  });
  afterAll(() => server?.close());

  it('gets the SDK’s -32021 naming the missing capability', async () => {
    const missing = { code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } };
    await expect(server.client.callTool({ name: 'fixture_greet', arguments: {} })).rejects.toMatchObject(missing);
    await expect(server.client.readResource({ uri: 'fixture://greeting' })).rejects.toMatchObject(missing);
  });
});
