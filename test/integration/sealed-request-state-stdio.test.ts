// Sealed requestState over real stdio pipes with the official SDK client: the compiled fixture, spawned with
// MCP_REQUEST_STATE_KEY, puts the `v1.` seal on the wire, completes the round, and answers a tampered retry with
// -32602 invalid_request_state before any handler runs, logging the reason (never the state) at debug.
import { join } from 'node:path';
import { type CallToolResult, type Client, isInputRequiredResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARRIED_STATE } from './fixtures/sealed-state/sealed-state.module.js';
import { REPO_ROOT } from './helpers/built-servers.js';
import { type ConnectedServer, connectServer, waitForProcessLog } from './helpers/connected-server.js';
import { ERAS, type EraCase } from './helpers/eras.js';
import { contentTexts } from './helpers/tool-results.js';

const SEALED_FIXTURE = join(REPO_ROOT, 'dist/test/integration/fixtures/sealed-state-fixture.js');
const ENVELOPE = ERAS.find((e) => e.era === 'envelope') as EraCase;
const HANDSHAKE = ERAS.find((e) => e.era === 'handshake') as EraCase;
const ENV = { MCP_REQUEST_STATE_KEY: 'stdio-request-state-key-0123456789abcdef', MCP_LOG_LEVEL: 'debug' };
const ACCEPTED = { proceed: { action: 'accept', content: { proceed: true } } } as const;

async function connectSealed(eraCase: EraCase): Promise<ConnectedServer> {
  const server = await connectServer(SEALED_FIXTURE, eraCase, ENV, { elicitation: {} });
  server.client.setRequestHandler('elicitation/create', () => ACCEPTED.proceed);
  return server;
}

function round(client: Client, retry: { inputResponses?: unknown; requestState?: string } = {}) {
  const params = { name: 'fixture_sealed_echo', arguments: {}, ...retry };
  return client.callTool(params, { allowInputRequired: true });
}

async function toolEntries(client: Client): Promise<number> {
  const result = await client.callTool({ name: 'fixture_sealed_entries', arguments: {} });
  return (result.structuredContent as { tool: number }).tool;
}

describe('sealed requestState over stdio, 2026-07-28', () => {
  let server: ConnectedServer;
  beforeAll(async () => {
    server = await connectSealed(ENVELOPE);
  });
  afterAll(() => server?.close());

  it('puts the v1 seal on the wire, not the plain string, and completes the round', async () => {
    server.wire.length = 0;
    const result = await server.client.callTool({ name: 'fixture_sealed_echo', arguments: {} });
    expect(contentTexts(result as CallToolResult)).toEqual([`Carried: ${CARRIED_STATE}`]);
    const states = server.wire.flatMap((message) => {
      const answer = 'result' in message ? (message.result as { requestState?: unknown }) : {};
      return answer.requestState === undefined ? [] : [answer.requestState];
    });
    expect(states).toEqual([expect.stringMatching(/^v1\.[\w-]+\.[\w-]+$/)]);
  });

  it('answers a tampered retry -32602 invalid_request_state without entering the handler, logging only the reason', async () => {
    const asked = await round(server.client);
    if (!isInputRequiredResult(asked) || asked.requestState === undefined) throw new Error('expected a sealed round');
    const tampered = `${asked.requestState}-TAMPERED`;
    const entries = await toolEntries(server.client);
    await expect(round(server.client, { inputResponses: ACCEPTED, requestState: tampered })).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'invalid_request_state' },
    });
    expect(await toolEntries(server.client)).toBe(entries);
    const [line] = await waitForProcessLog(server, (l) => String(l.msg).startsWith('requestState rejected'));
    expect(line).toMatchObject({
      level: 'debug',
      method: 'tools/call',
      reason: expect.stringMatching(/^(mac|malformed)$/),
    });
    expect(server.stderr()).not.toContain(asked.requestState);
  });
});

describe('sealed requestState over stdio, 2025-11-25', () => {
  let server: ConnectedServer;
  beforeAll(async () => {
    server = await connectSealed(HANDSHAKE);
  });
  afterAll(() => server?.close());

  it('completes the shim rounds and rejects a state the client put on its request', async () => {
    const result = await server.client.callTool({ name: 'fixture_sealed_echo', arguments: {} });
    expect(contentTexts(result as CallToolResult)).toEqual([`Carried: ${CARRIED_STATE}`]);
    const entries = await toolEntries(server.client);
    await expect(round(server.client, { inputResponses: ACCEPTED, requestState: 'forged' })).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'invalid_request_state' },
    });
    expect(await toolEntries(server.client)).toBe(entries);
  });
});
