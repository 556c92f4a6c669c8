// Tenants under auth, over real HTTP: each token's tenant claim is its own ctx.state, so tenant B cannot read A's
// state, page with A's list cursor, redeem A's consent record or replay A's sealed requestState; a token without a
// tenant is refused by ctx.state (fail closed) unless a fallback is configured; and a resource update published by a
// request of tenant A reaches tenant A's listen streams (and connections) only.
import { type Client, isInputRequiredResult } from '@modelcontextprotocol/client';
import { NOTIFIER } from 'mcp-kiln';
import { createTestingModule, startTestIssuer, type TestIssuer } from 'mcp-kiln/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CARRIED_STATE } from '../integration/fixtures/sealed-state/sealed-state.module.js';
import { AuthFixtureModule } from './helpers/auth-fixture.module.js';
import { type AuthServer, bearer, connectWithToken, RESOURCE, startAuthServer } from './helpers/auth-server.js';
import { ENVELOPE_VERSION, envelopeHeaders, MCP_ACCEPT } from './helpers/http-server.js';
import { frameMessage, SseStream } from './helpers/sse-frames.js';

const ALL = ['notes:read', 'notes:write'];
let issuer: TestIssuer;
let server: AuthServer;
const clients: Client[] = [];
const streams: SseStream[] = [];
beforeAll(async () => {
  issuer = await startTestIssuer({ audience: RESOURCE });
  server = await startAuthServer(issuer);
});
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

async function as(
  principal: { sub?: string; tenant?: string; clientId?: string },
  era: 'handshake' | 'envelope' = 'envelope',
  on = server,
) {
  const token = await issuer.mintToken({ scopes: ALL, ...principal });
  const client = await connectWithToken(on.endpoint, era, token);
  clients.push(client);
  const call = async (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
  return { client, call, token };
}

const structured = (result: { structuredContent?: unknown }) => result.structuredContent as Record<string, unknown>;
const ACCEPT_CONSENT = { confirm: { action: 'accept', content: { confirm: true } } };

describe('tenant isolation', () => {
  it.each(['handshake', 'envelope'] as const)(
    'keeps ctx.state apart: B neither reads nor overwrites A (%s)',
    async (era) => {
      const alice = await as({ sub: 'alice', tenant: `acme-${era}` }, era);
      const bob = await as({ sub: 'bob', tenant: `globex-${era}` }, era);
      await alice.call('notes_put', { key: 'plan', value: 'acme-secret' });
      expect(structured(await bob.call('notes_get', { key: 'plan' }))).toEqual({ value: null });
      await bob.call('notes_put', { key: 'plan', value: 'globex-plan' });
      expect(structured(await alice.call('notes_get', { key: 'plan' }))).toEqual({ value: 'acme-secret' });
      expect(await bob.client.readResource({ uri: 'tenant://notes/plan' })).toMatchObject({
        contents: [{ text: 'globex-plan' }],
      });
    },
  );

  it('shares state within a tenant, across subjects', async () => {
    const alice = await as({ sub: 'alice', tenant: 'initech' });
    const carol = await as({ sub: 'carol', tenant: 'initech' });
    await alice.call('notes_put', { key: 'memo', value: 'team' });
    expect(structured(await carol.call('notes_get', { key: 'memo' }))).toEqual({ value: 'team' });
  });

  it('refuses A’s list cursor to B', async () => {
    const alice = await as({ tenant: 'cursor-a' });
    const bob = await as({ tenant: 'cursor-b' });
    for (const key of ['c1', 'c2', 'c3']) await alice.call('notes_put', { key, value: key });
    await bob.call('notes_put', { key: 'c1', value: 'b' });
    const first = structured(await alice.call('notes_list', { limit: 1 }));
    expect(first).toMatchObject({ keys: ['c1'], cursor: expect.any(String) });
    const replayed = await bob.call('notes_list', { limit: 1, cursor: first.cursor });
    expect(replayed.isError).toBe(true);
    expect(structured(replayed)).toMatchObject({ error: { data: { reason: 'invalid_cursor' } } });
    expect(structured(await alice.call('notes_list', { limit: 1, cursor: first.cursor }))).toMatchObject({
      keys: ['c2'],
    });
  });

  it('never lets B (or another subject of A’s tenant) redeem A’s consent record', async () => {
    const alice = await as({ sub: 'alice', tenant: 'consent-a' });
    await alice.call('notes_put', { key: 'doomed', value: 'x' });
    const ask = async () => {
      const asked = await alice.client.callTool(
        { name: 'notes_delete', arguments: { key: 'doomed' } },
        { allowInputRequired: true },
      );
      if (!isInputRequiredResult(asked) || asked.requestState === undefined) throw new Error('expected a prompt');
      return asked.requestState;
    };
    const redeem = (client: Client, requestState: string) => {
      const params = {
        name: 'notes_delete',
        arguments: { key: 'doomed' },
        inputResponses: ACCEPT_CONSENT,
        requestState,
      };
      return client.callTool(params, { allowInputRequired: true });
    };
    const expectFreshPrompt = (answer: unknown, replayed: string) => {
      // Not a proceed: a fresh prompt of the intruder's own, minted for its own principal.
      expect(isInputRequiredResult(answer)).toBe(true);
      expect((answer as { requestState?: string }).requestState).not.toBe(replayed);
    };

    // Another tenant looks the record up in its own state, where it does not exist; A's record stays redeemable.
    const first = await ask();
    expectFreshPrompt(await redeem((await as({ sub: 'alice', tenant: 'consent-b' })).client, first), first);
    expect(structured(await alice.call('notes_get', { key: 'doomed' }))).toEqual({ value: 'x' });

    // Another subject of the same tenant finds a record minted for someone else: spent, never a proceed.
    const second = await ask();
    expectFreshPrompt(await redeem((await as({ sub: 'mallory', tenant: 'consent-a' })).client, second), second);
    expect(structured(await alice.call('notes_get', { key: 'doomed' }))).toEqual({ value: 'x' });

    expect(structured(await redeem(alice.client, first))).toEqual({ deleted: true });
  });

  it('refuses A’s sealed requestState to B (MCP_REQUEST_STATE_KEY)', async () => {
    const sealing = await startAuthServer(issuer, { MCP_REQUEST_STATE_KEY: 'auth-tenants-state-key-0123456789abcdef' });
    try {
      const alice = await as({ sub: 'alice', tenant: 'sealed-a' }, 'envelope', sealing);
      const asked = await alice.client.callTool(
        { name: 'fixture_sealed_echo', arguments: {} },
        { allowInputRequired: true },
      );
      if (!isInputRequiredResult(asked)) throw new Error('expected a sealed round');
      const retry: Parameters<Client['callTool']>[0] & Record<string, unknown> = {
        name: 'fixture_sealed_echo',
        arguments: {},
        inputResponses: { proceed: { action: 'accept', content: { proceed: true } } },
        requestState: asked.requestState,
      };
      for (const other of [
        { sub: 'alice', tenant: 'sealed-b' },
        { sub: 'bob', tenant: 'sealed-a' },
      ]) {
        const intruder = await as(other, 'envelope', sealing);
        await expect(intruder.client.callTool(retry, { allowInputRequired: true })).rejects.toMatchObject({
          code: -32602,
          data: { reason: 'invalid_request_state' },
        });
      }
      const done = await alice.client.callTool(retry, { allowInputRequired: true });
      expect(done.content).toEqual([{ type: 'text', text: `Carried: ${CARRIED_STATE}` }]);
    } finally {
      await sealing.close();
    }
  });
});

describe('a token without a tenant claim', () => {
  it.each(['handshake', 'envelope'] as const)(
    'has no tenant, so ctx.state refuses it (fail closed, %s)',
    async (era) => {
      const nobody = await as({ sub: 'drifter' }, era);
      expect(structured(await nobody.call('auth_whoami'))).toMatchObject({
        tenantId: null,
        auth: { subject: 'drifter', clientId: 'test-client' },
      });
      const refused = await nobody.call('notes_put', { key: 'k', value: 'v' });
      expect(refused.isError).toBe(true);
      expect(structured(refused)).toMatchObject({ error: { data: { reason: 'state_tenant_missing' } } });
    },
  );

  it('runs in the configured fallback: the subject, or one fixed tenant', async () => {
    for (const [env, expected] of [
      [{ MCP_AUTH_TENANT_FALLBACK: 'subject' }, 'drifter'],
      [{ MCP_AUTH_TENANT_FALLBACK: 'fixed', MCP_AUTH_FIXED_TENANT: 'shared-desk' }, 'shared-desk'],
      [{ MCP_AUTH_TENANT_CLAIM: 'org_id' }, 'org-7'],
    ] as const) {
      const fallback = await startAuthServer(issuer, env);
      try {
        const token = await issuer.mintToken({ sub: 'drifter', scopes: ALL, claims: { org_id: 'org-7' } });
        const client = await connectWithToken(fallback.endpoint, 'envelope', token);
        clients.push(client);
        const seen = await client.callTool({ name: 'auth_whoami', arguments: {} });
        expect(structured(seen).tenantId).toBe(expected);
        const stored = await client.callTool({ name: 'notes_put', arguments: { key: 'k', value: 'v' } });
        expect(stored.isError).toBeFalsy();
      } finally {
        await fallback.close();
      }
    }
  });
});

/** A 2026-07-28 listen stream for resource updates of `uris`, opened with `token`. */
async function listen(token: string, uris: readonly string[]): Promise<SseStream> {
  const abort = new AbortController();
  const method = 'subscriptions/listen';
  const response = await fetch(server.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...envelopeHeaders(method), ...bearer(token) },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen',
      method,
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': ENVELOPE_VERSION,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
        notifications: { resourceSubscriptions: uris },
      },
    }),
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const stream = new SseStream(response, abort);
  streams.push(stream);
  expect(frameMessage(await stream.next())).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
  return stream;
}

const updatedUri = async (stream: SseStream) =>
  (frameMessage(await stream.next()) as { params?: { uri?: string } }).params?.uri;

describe('resource notifications', () => {
  const A_ONLY = 'tenant://notes/a-only';
  const B_ONLY = 'tenant://notes/b-only';
  const EVERYONE = 'tenant://notes/everyone';
  const uris = [A_ONLY, B_ONLY, EVERYONE];

  it('reach the publishing tenant’s 2026-07-28 listen streams only; unscoped ones reach every tenant', async () => {
    const alice = await as({ tenant: 'notify-a' });
    const bob = await as({ tenant: 'notify-b' });
    const nobody = await as({ sub: 'no-tenant' });
    const aStream = await listen(alice.token, uris);
    const aSecond = await listen(await issuer.mintToken({ sub: 'carol', tenant: 'notify-a' }), uris);
    const bStream = await listen(bob.token, uris);
    const untenanted = await listen(nobody.token, uris);

    await alice.call('notes_touch', { uri: A_ONLY });
    await bob.call('notes_touch', { uri: B_ONLY });
    await nobody.call('notes_touch', { uri: A_ONLY });
    server.app.get(NOTIFIER).resourceUpdated(EVERYONE);

    expect([await updatedUri(aStream), await updatedUri(aStream)]).toEqual([A_ONLY, EVERYONE]);
    expect([await updatedUri(aSecond), await updatedUri(aSecond)]).toEqual([A_ONLY, EVERYONE]);
    expect([await updatedUri(bStream), await updatedUri(bStream)]).toEqual([B_ONLY, EVERYONE]);
    expect(await updatedUri(untenanted)).toBe(EVERYONE);
  });

  it('reach only the publishing tenant’s connections on stdio', async () => {
    const app = await createTestingModule({ imports: [AuthFixtureModule] }).compile();
    try {
      const heard = { a: [] as string[], b: [] as string[] };
      const connect = async (tenantId: string, into: string[]) => {
        const client = await app.connectClient({ era: 'handshake', auth: { clientId: 'c', tenantId, scopes: ALL } });
        client.setNotificationHandler('notifications/resources/updated', (note) => {
          into.push(note.params.uri);
        });
        for (const uri of uris) await client.subscribeResource({ uri });
        return client;
      };
      const a = await connect('stdio-a', heard.a);
      await connect('stdio-b', heard.b);
      await a.callTool({ name: 'notes_touch', arguments: { uri: A_ONLY } });
      app.get(NOTIFIER).resourceUpdated(EVERYONE);
      await vi.waitFor(() => expect(heard.b).toEqual([EVERYONE]));
      expect(heard.a).toEqual([A_ONLY, EVERYONE]);
    } finally {
      await app.close();
    }
  });
});
