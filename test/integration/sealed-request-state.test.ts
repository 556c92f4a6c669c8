// Sealed requestState (MCP_REQUEST_STATE_KEY) through the testing kit's in-memory clients: a handler returns a plain
// string, the wire carries the SDK codec's `v1.` seal bound to the caller, the retry's handler reads the plain string
// back, and a forged, tampered, expired, other-principal or other-key state is answered -32602 invalid_request_state
// before any handler runs. Without the key the plain string round-trips.
import {
  type CallToolResult,
  type Client,
  type ElicitResult,
  isInputRequiredResult,
} from '@modelcontextprotocol/client';
import type { ProtocolEra } from 'mcp-kiln';
import { createTestingModule, type TestingApp, type TestingPrincipal } from 'mcp-kiln/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { CARRIED_STATE, HandlerEntries, SealedStateModule } from './fixtures/sealed-state/sealed-state.module.js';

const KEY = 'integration-request-state-key-0123456789';
const OTHER_KEY = 'another-request-state-key-9876543210zyx';
const ACCEPTED: Record<string, ElicitResult> = { proceed: { action: 'accept', content: { proceed: true } } };
const REJECTED = {
  code: -32602,
  message: 'Invalid or expired requestState',
  data: { reason: 'invalid_request_state' },
};
const ALICE: TestingPrincipal = { clientId: 'client-a', subject: 'alice', tenantId: 'acme' };

const apps: TestingApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function compile(env: Record<string, string> = { MCP_REQUEST_STATE_KEY: KEY }): Promise<TestingApp> {
  const app = await createTestingModule({ imports: [SealedStateModule] }).compile({ env });
  apps.push(app);
  return app;
}

async function connect(app: TestingApp, era: ProtocolEra = 'envelope', auth?: TestingPrincipal): Promise<Client> {
  const client = await app.connectClient({ era, capabilities: { elicitation: {} }, ...(auth ? { auth } : {}) });
  client.setRequestHandler('elicitation/create', () => ACCEPTED.proceed as ElicitResult);
  return client;
}

/** One manual round of fixture_sealed_echo, with the retry fields the SDK keeps out of its public param types. */
function round(client: Client, retry: { inputResponses?: unknown; requestState?: string } = {}) {
  const params = { name: 'fixture_sealed_echo', arguments: {}, ...retry };
  return client.callTool(params, { allowInputRequired: true });
}

/** The requestState an input_required round carried on the wire. */
function stateOf(asked: unknown): string {
  if (!isInputRequiredResult(asked) || asked.requestState === undefined) throw new Error('expected a round with state');
  return asked.requestState;
}

/** The requestState of fixture_sealed_echo's first round. */
async function firstState(client: Client): Promise<string> {
  return stateOf(await round(client));
}

const text = (result: unknown) =>
  (result as CallToolResult).content.map((block) => (block.type === 'text' ? block.text : '')).join('');

/** Sends the retry and expects the SDK's rejection, with no handler entered on the way. */
async function expectRejected(app: TestingApp, client: Client, requestState: string): Promise<void> {
  const entries = app.get(HandlerEntries).tool;
  await expect(round(client, { inputResponses: ACCEPTED, requestState })).rejects.toMatchObject(REJECTED);
  expect(app.get(HandlerEntries).tool).toBe(entries);
}

describe('with MCP_REQUEST_STATE_KEY, on 2026-07-28', () => {
  it('completes a round: the wire carries the v1 seal, the handler reads its plain string back', async () => {
    const app = await compile();
    const client = await connect(app);
    const sealed = await firstState(client);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toBe(CARRIED_STATE);
    expect(text(await round(client, { inputResponses: ACCEPTED, requestState: sealed }))).toBe(
      `Carried: ${CARRIED_STATE}`,
    );
    // The SDK client's own retry loop echoes the sealed state just the same.
    expect(text(await client.callTool({ name: 'fixture_sealed_echo', arguments: {} }))).toBe(
      `Carried: ${CARRIED_STATE}`,
    );
    expect(app.get(HandlerEntries).tool).toBe(4);
  });

  it('rejects a tampered, a forged or a plain state before the handler runs', async () => {
    const app = await compile();
    const client = await connect(app);
    const sealed = await firstState(client);
    await expectRejected(app, client, `${sealed}-TAMPERED`);
    await expectRejected(app, client, `${sealed.slice(0, 5)}${sealed[5] === 'x' ? 'y' : 'x'}${sealed.slice(6)}`);
    await expectRejected(app, client, 'v1.e30.AAAA');
    await expectRejected(app, client, CARRIED_STATE);
  });

  it('rejects a state past MCP_REQUEST_STATE_TTL_SECONDS', async () => {
    const app = await compile({ MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_TTL_SECONDS: '1' });
    const client = await connect(app);
    const sealed = await firstState(client);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await expectRejected(app, client, sealed);
  });

  it('binds the state to its principal: another client, subject, tenant or nobody cannot replay it', async () => {
    const app = await compile();
    const alice = await connect(app, 'envelope', ALICE);
    const sealed = await firstState(alice);
    for (const other of [
      { ...ALICE, clientId: 'client-b' },
      { ...ALICE, subject: 'mallory' },
      { ...ALICE, tenantId: 'globex' },
    ]) {
      await expectRejected(app, await connect(app, 'envelope', other), sealed);
    }
    await expectRejected(app, await connect(app, 'envelope'), sealed);
    expect(text(await round(alice, { inputResponses: ACCEPTED, requestState: sealed }))).toBe(
      `Carried: ${CARRIED_STATE}`,
    );
  });

  it('rejects a state another key sealed, and accepts one another instance with the same key sealed', async () => {
    const sealedElsewhere = await firstState(await connect(await compile({ MCP_REQUEST_STATE_KEY: OTHER_KEY })));
    const app = await compile();
    await expectRejected(app, await connect(app), sealedElsewhere);
    const replica = await compile({ MCP_REQUEST_STATE_KEY: OTHER_KEY });
    const retry = { inputResponses: ACCEPTED, requestState: sealedElsewhere };
    expect(text(await round(await connect(replica), retry))).toBe(`Carried: ${CARRIED_STATE}`);
  });

  it('seals the rounds of resource reads and prompt gets too', async () => {
    const app = await compile();
    const client = await connect(app);
    const manual = { allowInputRequired: true } as const;
    const readState = stateOf(await client.readResource({ uri: 'fixture://sealed' }, manual));
    const promptState = stateOf(await client.getPrompt({ name: 'fixture_sealed_prompt', arguments: {} }, manual));
    expect([readState, promptState]).toEqual([expect.stringMatching(/^v1\./), expect.stringMatching(/^v1\./)]);

    const entries = { ...app.get(HandlerEntries) };
    const tamperedRead = { uri: 'fixture://sealed', inputResponses: ACCEPTED, requestState: `${readState}x` };
    await expect(client.readResource(tamperedRead, manual)).rejects.toMatchObject(REJECTED);
    const tamperedPrompt = { name: 'fixture_sealed_prompt', inputResponses: ACCEPTED, requestState: `${promptState}x` };
    await expect(client.getPrompt(tamperedPrompt, manual)).rejects.toMatchObject(REJECTED);
    expect({ ...app.get(HandlerEntries) }).toEqual(entries);

    const read = { uri: 'fixture://sealed', inputResponses: ACCEPTED, requestState: readState };
    expect(await client.readResource(read, manual)).toMatchObject({
      contents: [{ uri: 'fixture://sealed', text: `Carried: ${CARRIED_STATE}` }],
    });
    const prompt = { name: 'fixture_sealed_prompt', inputResponses: ACCEPTED, requestState: promptState };
    expect(await client.getPrompt(prompt, manual)).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: `Carried: ${CARRIED_STATE}` } }],
    });
  });
});

describe('with MCP_REQUEST_STATE_KEY, on 2025-11-25', () => {
  it('completes the shim rounds, which verify the sealed state inside the server', async () => {
    const app = await compile();
    const client = await connect(app, 'handshake', ALICE);
    expect(text(await client.callTool({ name: 'fixture_sealed_echo', arguments: {} }))).toBe(
      `Carried: ${CARRIED_STATE}`,
    );
    expect(app.get(HandlerEntries).tool).toBe(2);
  });

  it('rejects a requestState a 2025 client put on its request, before the handler runs', async () => {
    const app = await compile();
    const client = await connect(app, 'handshake');
    await expectRejected(app, client, 'forged');
    const sealed = await firstState(await connect(app, 'envelope', ALICE));
    await expectRejected(app, client, sealed);
  });
});

describe('without MCP_REQUEST_STATE_KEY', () => {
  it('round-trips the plain string, on both eras', async () => {
    const app = await compile({});
    const envelope = await connect(app);
    expect(await firstState(envelope)).toBe(CARRIED_STATE);
    expect(text(await round(envelope, { inputResponses: ACCEPTED, requestState: CARRIED_STATE }))).toBe(
      `Carried: ${CARRIED_STATE}`,
    );
    expect(text(await (await connect(app, 'handshake')).callTool({ name: 'fixture_sealed_echo', arguments: {} }))).toBe(
      `Carried: ${CARRIED_STATE}`,
    );
  });

  it('hands the handler whatever string the client sent: nothing verifies it', async () => {
    const app = await compile({});
    expect(text(await round(await connect(app), { inputResponses: ACCEPTED, requestState: 'made-up' }))).toBe(
      'Carried: made-up',
    );
  });
});
