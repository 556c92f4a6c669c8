// Sealed requestState over real HTTP: with MCP_REQUEST_STATE_KEY, a 2026-07-28 round carries the `v1.` seal and
// completes, a tampered retry is answered HTTP 200 with JSON-RPC -32602 invalid_request_state before any handler runs
// (each 2026-07-28 request gets a fresh server instance, which verifies with the app's one key), and a sessionful 2025
// client completes through the shim.
import { Client, isInputRequiredResult, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServing, http } from '../../modules/http/index.js';
import { CARRIED_STATE, SealedStateModule } from '../integration/fixtures/sealed-state/sealed-state.module.js';
import { ENVELOPE_VERSION, envelopeHeaders, envelopeRequest, jsonRpcMessages, post } from './helpers/http-server.js';

const ACCEPTED = { proceed: { action: 'accept', content: { proceed: true } } } as const;
const REJECTED = {
  code: -32602,
  message: 'Invalid or expired requestState',
  data: { reason: 'invalid_request_state' },
};

let testing: TestingApp;
let serving: HttpServing;
const clients: Client[] = [];

beforeAll(async () => {
  testing = await createTestingModule({ imports: [SealedStateModule] }).compile({
    env: {
      MCP_TRANSPORT_TYPE: 'http',
      MCP_HTTP_PORT: '0',
      MCP_SESSION_MODE: 'stateful',
      MCP_REQUEST_STATE_KEY: 'http-request-state-key-0123456789abcdefgh',
    },
  });
  serving = await testing.app.serve(http());
});
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await serving?.close();
  await testing?.close();
});

async function connect(era: 'handshake' | 'envelope'): Promise<Client> {
  const client = new Client(
    { name: `sealed-${era}`, version: '1.0.0' },
    {
      capabilities: { elicitation: {} },
      ...(era === 'envelope' ? { versionNegotiation: { mode: { pin: ENVELOPE_VERSION } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', () => ACCEPTED.proceed);
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.endpointUrl)));
  clients.push(client);
  return client;
}

function round(client: Client, retry: { inputResponses?: unknown; requestState?: string } = {}) {
  const params = { name: 'fixture_sealed_echo', arguments: {}, ...retry };
  return client.callTool(params, { allowInputRequired: true });
}

async function sealedState(client: Client): Promise<string> {
  const asked = await round(client);
  if (!isInputRequiredResult(asked) || asked.requestState === undefined) throw new Error('expected a sealed round');
  return asked.requestState;
}

async function toolEntries(client: Client): Promise<number> {
  const result = await client.callTool({ name: 'fixture_sealed_entries', arguments: {} });
  return (result.structuredContent as { tool: number }).tool;
}

describe('sealed requestState over HTTP', () => {
  it('carries the v1 seal on a 2026-07-28 round and completes with the plain string', async () => {
    const client = await connect('envelope');
    const sealed = await sealedState(client);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    const done = await round(client, { inputResponses: ACCEPTED, requestState: sealed });
    expect(done.content).toEqual([{ type: 'text', text: `Carried: ${CARRIED_STATE}` }]);
  });

  it('answers a tampered 2026-07-28 retry -32602 invalid_request_state, with no handler entered', async () => {
    const client = await connect('envelope');
    const tampered = `${await sealedState(client)}-TAMPERED`;
    const entries = await toolEntries(client);
    await expect(round(client, { inputResponses: ACCEPTED, requestState: tampered })).rejects.toMatchObject(REJECTED);

    // On the raw wire: HTTP 200 carrying the JSON-RPC error, as the spec's per-request errors go.
    const response = await post(
      serving.endpointUrl,
      envelopeRequest('tools/call', {
        name: 'fixture_sealed_echo',
        arguments: {},
        inputResponses: ACCEPTED,
        requestState: tampered,
      }),
      { ...envelopeHeaders('tools/call'), 'mcp-name': 'fixture_sealed_echo' },
    );
    expect(response.status).toBe(200);
    expect(await jsonRpcMessages(response)).toEqual([{ jsonrpc: '2.0', id: 1, error: REJECTED }]);
    expect(await toolEntries(client)).toBe(entries);
  });

  it('completes a sessionful 2025 round through the shim, verifying the sealed state inside the server', async () => {
    const client = await connect('handshake');
    const done = await client.callTool({ name: 'fixture_sealed_echo', arguments: {} });
    expect(done.content).toEqual([{ type: 'text', text: `Carried: ${CARRIED_STATE}` }]);
  });
});
