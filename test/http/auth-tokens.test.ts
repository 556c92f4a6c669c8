// Bearer tokens over real HTTP (MCP_AUTH_MODE=oauth against a local issuer whose JWKS this test serves): a valid
// token reaches handlers as ctx.auth and ctx.tenantId on both eras; every bad token is a 401 whose challenge names
// the protected resource metadata; keys are fetched once and refetched for an unknown kid only after the cooldown;
// an unreachable JWKS is a 503, never a 401; the metadata routes exist only when auth is on.
import type { Client } from '@modelcontextprotocol/client';
import { SignJWT, UnsecuredJWT } from 'jose';
import { startTestIssuer, type TestIssuer } from 'mcp-kiln/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthServer,
  bearer,
  callWith,
  connectWithToken,
  METADATA_URL,
  RESOURCE,
  startAuthServer,
} from './helpers/auth-server.js';
import {
  HANDSHAKE_VERSION,
  initializeRequest,
  jsonRpcMessages,
  MCP_ACCEPT,
  post,
  startHttpServer,
} from './helpers/http-server.js';

const now = () => Math.floor(Date.now() / 1000);
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
});

async function whoami(endpoint: string, era: 'handshake' | 'envelope', token: string) {
  const client = await connectWithToken(endpoint, era, token);
  clients.push(client);
  return (await client.callTool({ name: 'auth_whoami', arguments: {} })).structuredContent as {
    auth: unknown;
    tenantId: string | null;
    visible: string;
  };
}

/** The status, challenge and JSON-RPC error reason of a refused call. */
async function refusal(response: Response) {
  const body = (await response.json()) as { error?: { data?: { reason?: string } } };
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    reason: body.error?.data?.reason,
  };
}

const invalid = (description: string) => ({
  status: 401,
  reason: 'invalid_token',
  challenge: `Bearer error="invalid_token", error_description="${description}", resource_metadata="${METADATA_URL}"`,
});

describe('a protected server (oauth mode)', () => {
  let issuer: TestIssuer;
  let server: AuthServer;
  beforeAll(async () => {
    issuer = await startTestIssuer({ audience: RESOURCE });
    server = await startAuthServer(issuer, { MCP_AUTH_CLAIMS: 'org', OAUTH_EXTRA_AUDIENCES: 'api://kiln-notes' });
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
  });

  it.each(['handshake', 'envelope'] as const)('runs a %s call as the token’s principal and tenant', async (era) => {
    const token = await issuer.mintToken({
      sub: 'alice',
      clientId: 'desk-app',
      tenant: 'acme',
      scopes: ['notes:read'],
      claims: { scp: ['notes:write'], org: 'acme-corp', email: 'alice@acme.test' },
    });
    const seen = await whoami(server.endpoint, era, token);
    expect(seen.tenantId).toBe('acme');
    expect(seen.auth).toEqual({
      clientId: 'desk-app',
      subject: 'alice',
      scopes: ['notes:read', 'notes:write'],
      tenantId: 'acme',
      expiresAt: expect.any(Number),
      claims: { org: 'acme-corp' },
    });
    // Nothing a handler can read carries the token, whole or any part of it.
    for (const part of [token, ...token.split('.')]) expect(seen.visible).not.toContain(part);
  });

  it('runs a 2025 request served without a session (stateless) as the token’s principal too', async () => {
    const token = await issuer.mintToken({ sub: 'bob', tenant: 'globex', clientId: 'batch-job' });
    const response = await post(
      server.endpoint,
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'auth_whoami', arguments: {} } },
      { ...bearer(token), 'mcp-protocol-version': HANDSHAKE_VERSION },
    );
    expect(response.status).toBe(200);
    const [answer] = await jsonRpcMessages(response);
    expect(answer).toMatchObject({
      result: { structuredContent: { tenantId: 'globex', auth: { clientId: 'batch-job', subject: 'bob' } } },
    });
  });

  it('takes the client id from azp or cid when client_id is absent', async () => {
    const azp = await issuer.mintToken({ tenant: 't', claims: { client_id: undefined, azp: 'from-azp' } });
    expect((await whoami(server.endpoint, 'envelope', azp)).auth).toMatchObject({ clientId: 'from-azp' });
    const cid = await issuer.mintToken({ tenant: 't', claims: { client_id: undefined, cid: 'from-cid' } });
    expect((await whoami(server.endpoint, 'envelope', cid)).auth).toMatchObject({ clientId: 'from-cid' });
  });

  it('answers a request without a token 401 with a challenge naming the metadata, on every method and era', async () => {
    const expected = {
      status: 401,
      reason: 'authentication_required',
      challenge: `Bearer resource_metadata="${METADATA_URL}"`,
    };
    expect(await refusal(await callWith(server.endpoint, undefined, 'auth_whoami'))).toEqual(expected);
    expect(await refusal(await post(server.endpoint, initializeRequest()))).toEqual(expected);
    const get = await fetch(server.endpoint, { headers: { accept: 'text/event-stream' } });
    expect(await refusal(get)).toEqual(expected);
    const otherScheme = await post(server.endpoint, initializeRequest(), { authorization: 'Basic YTpi' });
    expect(await refusal(otherScheme)).toEqual(expected);
  });

  it('guards the endpoint however its path is spelled', async () => {
    const origin = new URL(server.endpoint).origin;
    for (const path of ['/%6Dcp', '/%6dcp', '/./mcp', '/x/../mcp', '/mcp?x=1']) {
      const response = await post(`${origin}${path}`, initializeRequest());
      expect(response.status, path).toBe(401);
      await response.text();
    }
  });

  it('refuses a token in the query string with 400, even a valid one', async () => {
    const token = await issuer.mintToken({ tenant: 'acme' });
    const response = await fetch(`${server.endpoint}?access_token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...bearer(token) },
      body: JSON.stringify(initializeRequest()),
    });
    expect(await refusal(response)).toEqual({
      status: 400,
      reason: 'token_in_query',
      challenge: `Bearer error="invalid_request", resource_metadata="${METADATA_URL}"`,
    });
  });

  it('accepts a token expired within the clock tolerance (30 s) and refuses one beyond it', async () => {
    const justExpired = await issuer.mintToken({ tenant: 'acme', exp: now() - 10 });
    expect((await callWith(server.endpoint, justExpired, 'auth_whoami')).status).toBe(200);
    const expired = await issuer.mintToken({ tenant: 'acme', exp: now() - 120 });
    expect(await refusal(await callWith(server.endpoint, expired, 'auth_whoami'))).toEqual(
      invalid('The token has expired.'),
    );
  });

  it('refuses a token not valid yet, and accepts one whose nbf is within the tolerance', async () => {
    const early = await issuer.mintToken({ tenant: 'acme', nbf: now() + 300 });
    expect(await refusal(await callWith(server.endpoint, early, 'auth_whoami'))).toEqual(
      invalid('The token is not valid yet (nbf).'),
    );
    const skewed = await issuer.mintToken({ tenant: 'acme', nbf: now() + 5 });
    expect((await callWith(server.endpoint, skewed, 'auth_whoami')).status).toBe(200);
  });

  it('refuses a token of another issuer, or for another audience', async () => {
    const foreign = await issuer.mintToken({ tenant: 'acme', iss: 'https://evil.example' });
    expect(await refusal(await callWith(server.endpoint, foreign, 'auth_whoami'))).toEqual(
      invalid("The token's iss is not accepted."),
    );
    const elsewhere = await issuer.mintToken({ tenant: 'acme', aud: 'https://other.example/mcp' });
    expect(await refusal(await callWith(server.endpoint, elsewhere, 'auth_whoami'))).toEqual(
      invalid("The token's aud is not accepted."),
    );
  });

  it('accepts an audience array that contains this server, and an extra accepted audience', async () => {
    const several = await issuer.mintToken({ tenant: 'acme', aud: ['https://other.example/mcp', RESOURCE] });
    expect((await callWith(server.endpoint, several, 'auth_whoami')).status).toBe(200);
    const extra = await issuer.mintToken({ tenant: 'acme', aud: 'api://kiln-notes' });
    expect((await callWith(server.endpoint, extra, 'auth_whoami')).status).toBe(200);
  });

  it('refuses HS256 and unsigned (alg none) tokens, whatever their claims', async () => {
    const claims = { tid: 'acme', client_id: 'x', scope: 'notes:read' };
    const hs256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: 'test-key-1' })
      .setIssuer(issuer.issuer)
      .setAudience(RESOURCE)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes!!'));
    expect(await refusal(await callWith(server.endpoint, hs256, 'auth_whoami'))).toEqual(
      invalid('The token is signed with an algorithm this server refuses.'),
    );
    const unsigned = new UnsecuredJWT(claims).setIssuer(issuer.issuer).setAudience(RESOURCE).setExpirationTime('1h');
    expect(await refusal(await callWith(server.endpoint, unsigned.encode(), 'auth_whoami'))).toMatchObject({
      status: 401,
      reason: 'invalid_token',
    });
  });

  it('refuses a token without exp, a tampered one and one that is not a JWT', async () => {
    const endless = await issuer.mintToken({ tenant: 'acme', exp: null });
    expect(await refusal(await callWith(server.endpoint, endless, 'auth_whoami'))).toEqual(
      invalid('The token has no exp claim.'),
    );
    const [header, payload, signature] = (await issuer.mintToken({ tenant: 'acme' })).split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload as string, 'base64url').toString()), tid: 'globex' }),
    ).toString('base64url');
    expect(await refusal(await callWith(server.endpoint, `${header}.${forged}.${signature}`, 'auth_whoami'))).toEqual(
      invalid("The token's signature does not verify."),
    );
    expect(await refusal(await callWith(server.endpoint, 'not-a-jwt', 'auth_whoami'))).toEqual(
      invalid('The token is not a well-formed signed JWT.'),
    );
  });

  it('serves RFC 9728 metadata at the root and the endpoint-suffixed well-known paths', async () => {
    const origin = new URL(server.endpoint).origin;
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: [issuer.issuer],
        scopes_supported: ['notes:admin', 'notes:read', 'notes:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'kiln-http-fixture',
      });
    }
  });

  it('keeps the landing page and health check open, and shows the protection and each tool’s scopes', async () => {
    const origin = new URL(server.endpoint).origin;
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    const page = await (await fetch(`${origin}/`)).text();
    expect(page).toContain('Bearer token required');
    expect(page).toContain(`issued by <code>${issuer.issuer}</code>`);
    expect(page).toContain(`href="${METADATA_URL}"`);
    const putCard = page.slice(
      page.indexOf('id="tool-notes_put"'),
      page.indexOf('</article>', page.indexOf('id="tool-notes_put"')),
    );
    expect(putCard).toContain('Needs the scopes</span> <code>notes:write</code>');
    const getCard = page.slice(
      page.indexOf('id="tool-notes_get"'),
      page.indexOf('</article>', page.indexOf('id="tool-notes_get"')),
    );
    expect(getCard).toContain('Needs one of the scopes</span> <code>notes:read</code> <code>notes:admin</code>');
  });
});

const COOLDOWN_MS = 1500;
const pastCooldown = () => new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 100));

describe('the JWKS', () => {
  let issuer: TestIssuer;
  let server: AuthServer;
  beforeAll(async () => {
    issuer = await startTestIssuer({ audience: RESOURCE });
    server = await startAuthServer(issuer, { OAUTH_JWKS_COOLDOWN_MS: String(COOLDOWN_MS) });
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
  });

  it('is fetched once for many requests, concurrent ones included', async () => {
    const tokens = await Promise.all(Array.from({ length: 12 }, (_, i) => issuer.mintToken({ tenant: `t${i}` })));
    const statuses = await Promise.all(
      tokens.map(async (token) => (await callWith(server.endpoint, token, 'auth_whoami')).status),
    );
    expect(statuses).toEqual(tokens.map(() => 200));
    for (const token of tokens.slice(0, 4))
      expect((await callWith(server.endpoint, token, 'auth_whoami')).status).toBe(200);
    expect(issuer.jwksRequests).toBe(1);
  });

  it('is refetched for an unknown kid only after the cooldown, and a rotated key is picked up then', async () => {
    const unknownKid = await issuer.mintToken({ tenant: 'acme', kid: 'rotated-away' });
    await pastCooldown();
    const before = issuer.jwksRequests;
    expect(await refusal(await callWith(server.endpoint, unknownKid, 'auth_whoami'))).toEqual(
      invalid("No key of the authorization server matches the token's kid."),
    );
    expect(issuer.jwksRequests).toBe(before + 1);
    // Cooling down since that fetch: refused without asking the issuer again.
    for (let i = 0; i < 5; i++) expect((await callWith(server.endpoint, unknownKid, 'auth_whoami')).status).toBe(401);
    expect(issuer.jwksRequests).toBe(before + 1);

    await issuer.rotateKey({ dropPrevious: true });
    const rotated = await issuer.mintToken({ tenant: 'acme' });
    await pastCooldown();
    expect((await callWith(server.endpoint, rotated, 'auth_whoami')).status).toBe(200);
    expect(issuer.jwksRequests).toBe(before + 2);
  });
});

describe('an unreachable authorization server', () => {
  let issuer: TestIssuer;
  let server: AuthServer;
  beforeAll(async () => {
    issuer = await startTestIssuer({ audience: RESOURCE });
    server = await startAuthServer(issuer, { OAUTH_JWKS_COOLDOWN_MS: '1000' });
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
  });

  it('is a 503 with Retry-After, never a 401, and the same token works once the keys are back', async () => {
    const token = await issuer.mintToken({ tenant: 'acme' });
    issuer.setAvailable(false);
    const down = await callWith(server.endpoint, token, 'auth_whoami');
    expect(down.headers.get('retry-after')).toBe('5');
    expect(await refusal(down)).toEqual({ status: 503, reason: 'auth_unavailable', challenge: null });
    issuer.setAvailable(true);
    // The failure is remembered for the cooldown, so no request makes an outbound fetch before it has passed.
    expect((await callWith(server.endpoint, token, 'auth_whoami')).status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect((await callWith(server.endpoint, token, 'auth_whoami')).status).toBe(200);
  });
});

describe('the JWKS URI, discovered from the issuer metadata', () => {
  let issuer: TestIssuer;
  let server: AuthServer;
  beforeAll(async () => {
    issuer = await startTestIssuer({ audience: RESOURCE });
    server = await startAuthServer(issuer, { OAUTH_JWKS_URI: '', OAUTH_JWKS_COOLDOWN_MS: '1000' });
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
  });

  it('is found through /.well-known/oauth-authorization-server; while it cannot be, requests get 503', async () => {
    const token = await issuer.mintToken({ tenant: 'acme' });
    issuer.setAvailable(false);
    expect((await callWith(server.endpoint, token, 'auth_whoami')).status).toBe(503);
    issuer.setAvailable(true);
    // The failure is remembered for the cooldown (1 s, the floor): the next attempt goes out after it.
    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect((await callWith(server.endpoint, token, 'auth_whoami')).status).toBe(200);
    expect(issuer.jwksRequests).toBe(1);
  });
});

describe('jwt mode (shared secret) and a verifier of your own', () => {
  const SECRET = 'kiln-test-shared-secret-0123456789abcdef';
  let server: AuthServer;
  beforeAll(async () => {
    server = await startAuthServer(undefined, {
      MCP_AUTH_MODE: 'jwt',
      MCP_AUTH_SECRET_KEY: SECRET,
      // Any string: iss need not be a URL, and jwt mode names no authorization server.
      MCP_JWT_EXPECTED_ISSUER: 'dev-kiln-service',
      MCP_AUTH_TENANT_FALLBACK: 'subject',
    });
  });
  afterAll(() => server?.close());

  const hs256 = (claims: Record<string, unknown>, secret = SECRET) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('dev-kiln-service')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));

  it('accepts an HS256 token signed with the secret; without a tenant claim the subject is the tenant', async () => {
    const token = await hs256({ sub: 'dev-user', client_id: 'cli' });
    const seen = await whoami(server.endpoint, 'envelope', token);
    expect(seen).toMatchObject({ tenantId: 'dev-user', auth: { clientId: 'cli', subject: 'dev-user' } });
  });

  it('refuses one signed with another secret', async () => {
    const token = await hs256({ sub: 'dev-user' }, 'another-secret-that-is-long-enough-000');
    expect((await callWith(server.endpoint, token, 'auth_whoami')).status).toBe(401);
  });

  it('serves no protected resource metadata, and its challenges point at none', async () => {
    const origin = new URL(server.endpoint).origin;
    expect((await fetch(`${origin}/.well-known/oauth-protected-resource`)).status).toBe(404);
    expect((await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
    const refused = await callWith(server.endpoint, undefined, 'auth_whoami');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    await refused.text();
  });
});

describe('a server without auth', () => {
  it('has no metadata routes and takes requests without a token', async () => {
    const server = await startHttpServer();
    try {
      const origin = new URL(server.endpoint).origin;
      expect((await fetch(`${origin}/.well-known/oauth-protected-resource`)).status).toBe(404);
      expect((await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
      const response = await post(server.endpoint, initializeRequest());
      expect(response.status).toBe(200);
      expect(await jsonRpcMessages(response)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
