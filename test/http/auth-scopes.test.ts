// @Scopes over real HTTP: a call the token's scopes do not cover is answered 403 before any handler runs, with one
// step-up challenge naming every scope the operation needs, on both eras (a 2025 session too); a re-minted token with
// those scopes passes. Any-of and all-of forms, a scope hierarchy, scoped resources and prompts, a scope checked
// inside a handler (an error result), tools/list hiding what a caller cannot call, and stdio's error results.
import type { Client } from '@modelcontextprotocol/client';
import { createTestingModule, startTestIssuer, type TestIssuer, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthFixtureModule } from './helpers/auth-fixture.module.js';
import {
  type AuthServer,
  bearer,
  callWith,
  connectWithToken,
  METADATA_URL,
  postEnvelopeWith,
  RESOURCE,
  startAuthServer,
} from './helpers/auth-server.js';
import { jsonRpcMessages, post, sessionHeaders } from './helpers/http-server.js';

let issuer: TestIssuer;
let server: AuthServer;
const clients: Client[] = [];
beforeAll(async () => {
  issuer = await startTestIssuer({ audience: RESOURCE });
  server = await startAuthServer(issuer);
});
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

const token = (scopes: readonly string[], tenant = 'acme') => issuer.mintToken({ sub: 'alice', tenant, scopes });

async function connect(era: 'handshake' | 'envelope', scopes: readonly string[], on = server) {
  const client = await connectWithToken(on.endpoint, era, await token(scopes));
  clients.push(client);
  return client;
}

/** The parts of a 403 step-up answer a client acts on. */
async function stepUp(response: Response) {
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    messages: await jsonRpcMessages(response),
  };
}

const challengeFor = (scope: string) =>
  `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${METADATA_URL}"`;

describe('a call without the scopes it needs', () => {
  it('is a 403 naming the scope, before the handler runs; a re-minted token with the scope passes', async () => {
    const response = await callWith(server.endpoint, await token([]), 'notes_put', { key: 'k', value: 'v1' });
    expect(await stepUp(response)).toEqual({
      status: 403,
      challenge: challengeFor('notes:write'),
      messages: [
        {
          jsonrpc: '2.0',
          id: 1,
          error: {
            code: -32006,
            message: 'This request needs the scope notes:write, which the token lacks.',
            data: {
              reason: 'insufficient_scope',
              requiredScopes: ['notes:write'],
              recovery: { hint: expect.stringContaining('data.requiredScopes') },
            },
          },
        },
      ],
    });
    const reader = await connect('envelope', ['notes:read']);
    expect((await reader.callTool({ name: 'notes_get', arguments: { key: 'k' } })).structuredContent).toEqual({
      value: null,
    });

    const granted = await token(['notes:write']);
    expect((await callWith(server.endpoint, granted, 'notes_put', { key: 'k', value: 'v1' })).status).toBe(200);
    expect((await reader.callTool({ name: 'notes_get', arguments: { key: 'k' } })).structuredContent).toEqual({
      value: 'v1',
    });
  });

  it('names every scope of an all-of requirement, held ones included', async () => {
    const response = await callWith(server.endpoint, await token(['notes:write']), 'notes_purge');
    expect(await stepUp(response)).toMatchObject({
      status: 403,
      challenge: challengeFor('notes:admin notes:write'),
      messages: [{ error: { data: { requiredScopes: ['notes:admin', 'notes:write'] } } }],
    });
    const both = await token(['notes:write', 'notes:admin']);
    expect((await callWith(server.endpoint, both, 'notes_purge')).status).toBe(200);
  });

  it('names the first alternative of an any-of requirement; either alternative passes', async () => {
    const response = await callWith(server.endpoint, await token(['notes:write']), 'notes_get', { key: 'k' });
    expect((await stepUp(response)).challenge).toBe(challengeFor('notes:read'));
    for (const scope of ['notes:read', 'notes:admin']) {
      expect((await callWith(server.endpoint, await token([scope]), 'notes_get', { key: 'k' })).status).toBe(200);
    }
  });

  it('guards resources and prompts the same way', async () => {
    const none = await token([]);
    const read = await postEnvelopeWith(server.endpoint, none, 'resources/read', { uri: 'tenant://notes/k' });
    expect(await stepUp(read)).toMatchObject({ status: 403, challenge: challengeFor('notes:read') });
    const prompt = await postEnvelopeWith(server.endpoint, none, 'prompts/get', { name: 'notes_brief' });
    expect(await stepUp(prompt)).toMatchObject({ status: 403, challenge: challengeFor('notes:read') });
    const completion = await postEnvelopeWith(server.endpoint, none, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'notes_brief' },
      argument: { name: 'x', value: '' },
    });
    expect((await stepUp(completion)).status).toBe(403);
    const reader = await token(['notes:read']);
    expect(
      (await postEnvelopeWith(server.endpoint, reader, 'resources/read', { uri: 'tenant://notes/k' })).status,
    ).toBe(200);
  });

  it('is a 403 on a 2025 session too, which the SDK client reports as an error', async () => {
    const client = await connect('handshake', ['notes:read']);
    await expect(client.callTool({ name: 'notes_put', arguments: { key: 'k', value: 'x' } })).rejects.toThrow(
      /Insufficient scope: required "notes:write"/,
    );

    // On the wire, inside the session that initialize opened.
    const plain = await token(['notes:read']);
    const opened = await post(
      server.endpoint,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      bearer(plain),
    );
    const sessionId = opened.headers.get('mcp-session-id') as string;
    await opened.text();
    const refused = await post(
      server.endpoint,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'notes_put', arguments: { key: 'k', value: 'x' } },
      },
      { ...bearer(plain), ...sessionHeaders(sessionId) },
    );
    expect(await stepUp(refused)).toMatchObject({ status: 403, challenge: challengeFor('notes:write') });
  });

  it('checked inside the handler (ctx.requireScopes), is an error result with the same reason', async () => {
    const client = await connect('envelope', []);
    const result = await client.callTool({ name: 'notes_audit', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: { code: -32006, data: { reason: 'insufficient_scope', requiredScopes: ['audit:read'] } },
    });
    const auditor = await connect('envelope', ['audit:read']);
    expect((await auditor.callTool({ name: 'notes_audit', arguments: {} })).structuredContent).toEqual({ entries: 0 });
  });
});

describe('a scope hierarchy (MCP_AUTH_SCOPE_HIERARCHY)', () => {
  let ranked: AuthServer;
  beforeAll(async () => {
    ranked = await startAuthServer(issuer, {
      MCP_AUTH_SCOPE_HIERARCHY: 'notes:admin>notes:write,notes:write>notes:read',
    });
  });
  afterAll(() => ranked?.close());

  it('lets a broader scope do what the scopes it implies allow, and shows them in ctx.auth.scopes', async () => {
    const admin = await token(['notes:admin']);
    for (const [name, args] of [
      ['notes_put', { key: 'h', value: 'x' }],
      ['notes_get', { key: 'h' }],
      ['notes_list', {}],
      ['notes_purge', {}],
    ] as const) {
      expect((await callWith(ranked.endpoint, admin, name, args)).status, name).toBe(200);
    }
    const client = await connect('envelope', ['notes:write'], ranked);
    const seen = await client.callTool({ name: 'auth_whoami', arguments: {} });
    expect((seen.structuredContent as { auth: { scopes: string[] } }).auth.scopes).toEqual([
      'notes:write',
      'notes:read',
    ]);
    // Implied scopes flow downward only.
    expect(
      (await callWith(ranked.endpoint, await token(['notes:read']), 'notes_put', { key: 'h', value: 'y' })).status,
    ).toBe(403);
  });
});

describe('tools/list', () => {
  let hiding: AuthServer;
  beforeAll(async () => {
    hiding = await startAuthServer(issuer, { MCP_AUTH_HIDE_FORBIDDEN_TOOLS: 'true' });
  });
  afterAll(() => hiding?.close());

  const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();

  it('lists every tool by default, whatever the caller may call', async () => {
    expect(await names(await connect('envelope', []))).toContain('notes_purge');
  });

  it.each(['handshake', 'envelope'] as const)(
    'with MCP_AUTH_HIDE_FORBIDDEN_TOOLS, leaves out what the caller cannot call (%s)',
    async (era) => {
      const listed = await names(await connect(era, ['notes:read'], hiding));
      expect(listed).toContain('notes_get');
      expect(listed).toContain('notes_list');
      expect(listed).toContain('auth_whoami');
      expect(listed).not.toContain('notes_put');
      expect(listed).not.toContain('notes_purge');
      const writer = await names(await connect(era, ['notes:write', 'notes:admin'], hiding));
      expect(writer).toEqual(expect.arrayContaining(['notes_put', 'notes_purge', 'notes_get']));
    },
  );
});

describe('stdio (the testing kit’s in-memory connection) and direct calls', () => {
  let app: TestingApp;
  beforeAll(async () => {
    app = await createTestingModule({ imports: [AuthFixtureModule] }).compile();
  });
  afterAll(() => app?.close());

  it.each(['handshake', 'envelope'] as const)(
    'answers a %s call without the scope with an error result',
    async (era) => {
      const client = await app.connectClient({
        era,
        auth: { clientId: 'cli', tenantId: 'acme', scopes: ['notes:read'] },
      });
      const result = await client.callTool({ name: 'notes_put', arguments: { key: 'k', value: 'v' } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({
        error: { code: -32006, data: { reason: 'insufficient_scope', requiredScopes: ['notes:write'] } },
      });
      await expect(client.readResource({ uri: 'tenant://notes/k' })).resolves.toBeDefined();
      const none = await app.connectClient({ era, auth: { clientId: 'cli', tenantId: 'acme' } });
      await expect(none.readResource({ uri: 'tenant://notes/k' })).rejects.toMatchObject({
        code: -32006,
        data: { reason: 'insufficient_scope', requiredScopes: ['notes:read'] },
      });
    },
  );

  it('checks nothing for an unauthenticated connection: without auth the server is open', async () => {
    const client = await app.connectClient({ era: 'envelope' });
    expect((await client.callTool({ name: 'notes_put', arguments: { key: 'k', value: 'v' } })).isError).toBeFalsy();
  });

  it('refuses a direct call made as a principal without the scope', async () => {
    const result = await app.callTool('notes_purge', {}, { auth: { clientId: 'x', scopes: ['notes:write'] } });
    expect(result.structuredContent).toMatchObject({ error: { data: { reason: 'insufficient_scope' } } });
  });
});
