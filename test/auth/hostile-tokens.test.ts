// Hostile bearer tokens over real HTTP against a server in oauth mode: each gets 401 invalid_token without unbounded
// work. An oversized token is refused before any verification; a wrong `typ` (the server asks for at+jwt, RFC 9068),
// a nested JWT (`cty: JWT`), a `crit` header naming an extension the server does not know, and a storm of tokens each
// naming an unknown `kid` (which fetches the issuer's keys at most once per cooldown, however many arrive at once).
import { startTestIssuer, type TestIssuer } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServer, callWith, RESOURCE, startAuthServer } from '../http/helpers/auth-server.js';

let issuer: TestIssuer;
let server: AuthServer;

beforeAll(async () => {
  issuer = await startTestIssuer({ audience: RESOURCE });
  server = await startAuthServer(issuer, { OAUTH_TOKEN_TYPE: 'at+jwt', OAUTH_JWKS_COOLDOWN_MS: '60000' });
});

afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

async function refusal(token: string) {
  const response = await callWith(server.endpoint, token, 'auth_whoami');
  const body = (await response.json()) as { error?: { data?: { reason?: string }; message?: string } };
  return { status: response.status, reason: body.error?.data?.reason, message: body.error?.message ?? '' };
}

describe('hostile bearer tokens', () => {
  it('takes a well-formed at+jwt token (the baseline)', async () => {
    const token = await issuer.mintToken({ typ: 'at+jwt', tenant: 'acme' });
    expect((await callWith(server.endpoint, token, 'auth_whoami')).status).toBe(200);
  });

  it('refuses an oversized token before verifying it: no key fetch, no signature check', async () => {
    const token = await issuer.mintToken({ typ: 'at+jwt', claims: { padding: 'x'.repeat(9000) } });
    const before = issuer.jwksRequests;
    expect(await refusal(token)).toMatchObject({
      status: 401,
      reason: 'invalid_token',
      message: expect.stringMatching(/longer than 8192/),
    });
    expect(issuer.jwksRequests).toBe(before);
  });

  it.each([
    ['a wrong typ', { typ: 'JWT' }],
    ['no typ where at+jwt is required', {}],
    ['a nested JWT (cty: JWT)', { typ: 'at+jwt', header: { cty: 'JWT' } }],
    [
      'a crit header naming an unknown extension',
      { typ: 'at+jwt', header: { crit: ['kiln-unknown'], 'kiln-unknown': 1 } },
    ],
  ] as const)('refuses %s with 401 invalid_token', async (_label, options) => {
    const token = await issuer.mintToken({ tenant: 'acme', ...options });
    expect(await refusal(token)).toMatchObject({ status: 401, reason: 'invalid_token' });
  });

  it('fetches the keys at most once for a storm of 50 tokens with 50 unknown kids at once', async () => {
    // Let a first unknown kid start the cooldown.
    const first = await issuer.mintToken({ typ: 'at+jwt', kid: 'storm-first' });
    expect((await refusal(first)).status).toBe(401);
    const before = issuer.jwksRequests;
    const storm = await Promise.all(
      Array.from({ length: 50 }, (_, index) => issuer.mintToken({ typ: 'at+jwt', kid: `storm-${index}` })),
    );
    const statuses = await Promise.all(storm.map(async (token) => (await refusal(token)).status));
    expect(statuses).toEqual(storm.map(() => 401));
    expect(issuer.jwksRequests - before).toBeLessThanOrEqual(1);
    // A good token still works meanwhile: its kid is known.
    const good = await issuer.mintToken({ typ: 'at+jwt', tenant: 'acme' });
    expect((await callWith(server.endpoint, good, 'auth_whoami')).status).toBe(200);
  });
});
