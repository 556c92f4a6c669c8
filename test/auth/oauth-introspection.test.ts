// Opaque access tokens checked at oidc-provider's introspection endpoint (RFC 7662) by a Kiln server in oauth mode
// with OAUTH_INTROSPECTION_URL: an active token for this resource is taken (its subject, client and tenant become
// ctx.auth), one for another resource or an unknown one refused with 401; answers are cached (one introspection for
// many requests, and for many requests at once), a revoked token is refused once its cached answer is out, and an
// endpoint that cannot be reached is a 503, never a 401.
import { authFromEnv } from 'mcp-kiln/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthFixtureModule } from '../http/helpers/auth-fixture.module.js';
import { callWith } from '../http/helpers/auth-server.js';
import { type RunningServer, startHttpServer } from '../http/helpers/http-server.js';
import { type OidcProvider, startOidcProvider } from '../support/oidc-provider.js';
import { ephemeralPort } from '../support/redis-servers.js';

const OTHER_RESOURCE = 'https://other.example/mcp';
const SERVICE = { clientId: 'reporting-service', clientSecret: 'reporting-service-secret-0123456789' };
const KILN = { clientId: 'kiln-resource-server', clientSecret: 'kiln-resource-server-secret-0123456789' };
const INTROSPECTION = '/token/introspection';

let oidc: OidcProvider;
let resource: string;
const servers: RunningServer[] = [];

async function kilnServer(extra: Record<string, string> = {}): Promise<RunningServer> {
  const port = await ephemeralPort();
  const env = {
    MCP_HTTP_PORT: String(port),
    MCP_AUTH_MODE: 'oauth',
    OAUTH_ISSUER_URL: oidc.issuer,
    OAUTH_AUDIENCE: resource,
    OAUTH_INTROSPECTION_URL: `${oidc.issuer}${INTROSPECTION}`,
    OAUTH_INTROSPECTION_CLIENT_ID: KILN.clientId,
    OAUTH_INTROSPECTION_CLIENT_SECRET: KILN.clientSecret,
    ...extra,
  };
  const auth = authFromEnv({ MCP_TRANSPORT_TYPE: 'http', ...env });
  const server = await startHttpServer(env, auth ? { auth } : {}, AuthFixtureModule);
  servers.push(server);
  return server;
}

beforeAll(async () => {
  // The audience every token names is this fixed URI; the servers below listen on ports of their own.
  resource = 'https://notes.kiln.test/mcp';
  oidc = await startOidcProvider({
    resources: {
      [resource]: { scopes: 'notes:read notes:write', format: 'opaque' },
      [OTHER_RESOURCE]: { scopes: 'notes:read', format: 'opaque' },
    },
    tenant: 'acme',
    clients: [
      { ...SERVICE, grantTypes: ['client_credentials'] },
      { ...KILN, grantTypes: ['client_credentials'] },
    ],
  });
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await oidc?.close();
});

const basic = (client: { clientId: string; clientSecret: string }) =>
  `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;

async function opaqueToken(forResource = resource): Promise<string> {
  const response = await fetch(`${oidc.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(SERVICE) },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource: forResource, scope: 'notes:read' }),
  });
  const body = (await response.json()) as { access_token: string };
  expect(response.status).toBe(200);
  // Opaque: not a JWT.
  expect(body.access_token.split('.')).toHaveLength(1);
  return body.access_token;
}

const whoami = (server: RunningServer, token: string) => callWith(server.endpoint, token, 'auth_whoami');

describe('opaque tokens checked by introspection', () => {
  it('takes an active token for this resource, once introspected however many requests use it', async () => {
    const server = await kilnServer();
    const token = await opaqueToken();
    const before = oidc.requests(INTROSPECTION);
    const answers = await Promise.all(Array.from({ length: 10 }, () => whoami(server, token)));
    for (const answer of answers) expect(answer.status).toBe(200);
    const body = (await (answers[0] as Response).json()) as { result: { structuredContent: Record<string, unknown> } };
    expect(body.result.structuredContent).toMatchObject({
      tenantId: 'acme',
      auth: { clientId: SERVICE.clientId, scopes: ['notes:read'] },
    });
    expect((await whoami(server, token)).status).toBe(200);
    expect(oidc.requests(INTROSPECTION) - before).toBe(1);
  });

  it('refuses a token for another resource, and an unknown one, with 401 invalid_token', async () => {
    const server = await kilnServer();
    for (const token of [await opaqueToken(OTHER_RESOURCE), 'no-such-token-0123456789']) {
      const refused = await whoami(server, token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      await refused.text();
    }
  });

  it('refuses a revoked token once its cached answer is out (here, no cache)', async () => {
    const server = await kilnServer({ OAUTH_INTROSPECTION_CACHE_MS: '0' });
    const token = await opaqueToken();
    expect((await whoami(server, token)).status).toBe(200);
    const revoked = await fetch(`${oidc.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(SERVICE) },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
    });
    expect(revoked.status).toBe(200);
    expect((await whoami(server, token)).status).toBe(401);
  });

  it('answers 503 while the introspection endpoint cannot answer, never 401', async () => {
    const server = await kilnServer({ OAUTH_INTROSPECTION_URL: `${oidc.issuer}/no-introspection-here` });
    const answer = await whoami(server, await opaqueToken());
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ error: { data: { reason: 'auth_unavailable' } } });
  });
});
