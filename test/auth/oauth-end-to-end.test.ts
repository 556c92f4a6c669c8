// OAuth end to end against a real authorization server: oidc-provider on loopback (resource indicators, dynamic
// client registration, PKCE, refresh tokens) and a Kiln server in oauth mode, driven by the official SDK client's
// OAuth support the way an MCP client runs it: a 401 names the protected resource metadata, the client discovers the
// authorization server, registers itself, sends the user (here, the test playing the browser) through authorization
// code + PKCE with the Kiln resource as indicator, and calls tools with a token whose audience is the resource; on both
// protocol versions. Then: a refresh, a token for another resource refused, and a missing scope answered with the
// 403 step-up challenge that succeeds after the user grants it.
import {
  Client,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import { authFromEnv } from 'mcp-kiln/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthFixtureModule } from '../http/helpers/auth-fixture.module.js';
import { postEnvelopeWith } from '../http/helpers/auth-server.js';
import { ENVELOPE_VERSION, type Era, type RunningServer, startHttpServer } from '../http/helpers/http-server.js';
import { type OidcProvider, startOidcProvider } from '../support/oidc-provider.js';
import { ephemeralPort } from '../support/redis-servers.js';

const OTHER_RESOURCE = 'https://other.example/mcp';
// What the Kiln server's @Scopes use (its metadata's scopes_supported): the client registers for them all.
const SCOPES = 'notes:read notes:write notes:admin';
const SERVICE = { clientId: 'reporting-service', clientSecret: 'reporting-service-secret-0123456789' };
const REDIRECT = 'http://127.0.0.1:1/callback';

let oidc: OidcProvider;
let server: RunningServer;
let resource: string;

beforeAll(async () => {
  const port = await ephemeralPort();
  resource = `http://127.0.0.1:${port}/mcp`;
  oidc = await startOidcProvider({
    resources: { [resource]: { scopes: SCOPES }, [OTHER_RESOURCE]: { scopes: SCOPES } },
    tenant: 'acme',
    clients: [{ ...SERVICE, grantTypes: ['client_credentials'] }],
  });
  const env = {
    MCP_HTTP_PORT: String(port),
    MCP_AUTH_MODE: 'oauth',
    OAUTH_ISSUER_URL: oidc.issuer,
    OAUTH_AUDIENCE: resource,
  };
  const auth = authFromEnv({ MCP_TRANSPORT_TYPE: 'http', ...env });
  server = await startHttpServer(env, auth ? { auth } : {}, AuthFixtureModule);
});

afterAll(async () => {
  await server?.close();
  await oidc?.close();
});

/** The SDK's OAuth hooks, kept in memory; the authorization URL is kept for the test to browse. */
class MemoryOAuthClient implements OAuthClientProvider {
  information: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
  stored: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  verifier = '';
  authorizationUrl: URL | undefined;

  get redirectUrl() {
    return REDIRECT;
  }

  get clientMetadata() {
    return {
      client_name: 'kiln-oauth-e2e',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    };
  }

  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: NonNullable<MemoryOAuthClient['information']>) {
    this.information = information;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: NonNullable<MemoryOAuthClient['stored']>) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

function transportFor(oauth: MemoryOAuthClient) {
  return new StreamableHTTPClientTransport(new URL(resource), { authProvider: oauth });
}

/**
 * Runs `work`; when it sends the client to authorize, plays the user (granting all but `withhold`), finishes the
 * flow on `transport`, and runs `again` (the same work, or the same on a fresh transport).
 */
async function withAuthorization<T>(
  oauth: MemoryOAuthClient,
  transport: StreamableHTTPClientTransport,
  work: () => Promise<T>,
  options: { readonly withhold?: readonly string[]; readonly again?: () => Promise<T> } = {},
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || !oauth.authorizationUrl) throw error;
    const callback = await oidc.browse(oauth.authorizationUrl, { withhold: options.withhold ?? [] });
    oauth.authorizationUrl = undefined;
    expect(callback.get('error')).toBeNull();
    await transport.finishAuth(callback);
    return (options.again ?? work)();
  }
}

/** A connected client; the user grants everything asked for but `withhold`. */
async function connect(era: Era, withhold: readonly string[] = []) {
  const oauth = new MemoryOAuthClient();
  const client = new Client(
    { name: `kiln-oauth-${era}`, version: '1.0.0' },
    era === 'envelope' ? { versionNegotiation: { mode: { pin: ENVELOPE_VERSION } } } : undefined,
  );
  let transport = transportFor(oauth);
  // After authorizing, the client connects again on a fresh transport (a 2025 session opens with initialize).
  await withAuthorization(oauth, transport, () => client.connect(transport), {
    withhold,
    again: () => {
      transport = transportFor(oauth);
      return client.connect(transport);
    },
  });
  return { client, oauth, transport };
}

const whoami = async (client: Client) =>
  (await client.callTool({ name: 'auth_whoami', arguments: {} })).structuredContent as {
    auth: { clientId: string; subject: string; scopes: string[] };
    tenantId: string;
  };

describe.each(['handshake', 'envelope'] as const)('the SDK client through a real OAuth flow (%s era)', (era) => {
  it('discovers, registers, authorizes with PKCE and a resource indicator, and calls tools', async () => {
    const { client, oauth } = await connect(era);
    try {
      expect(oauth.information?.client_id).toEqual(expect.any(String));
      const token = decodeJwt(oauth.stored?.access_token as string);
      expect(token).toMatchObject({ aud: resource, iss: oidc.issuer, sub: 'alice', tid: 'acme' });
      expect(await whoami(client)).toMatchObject({
        tenantId: 'acme',
        auth: {
          clientId: oauth.information?.client_id,
          subject: 'alice',
          scopes: expect.arrayContaining(['notes:read']),
        },
      });
      const put = await client.callTool({ name: 'notes_put', arguments: { key: `k-${era}`, value: 'v' } });
      expect(put.isError).toBeFalsy();
      const got = await client.callTool({ name: 'notes_get', arguments: { key: `k-${era}` } });
      expect(got.structuredContent).toEqual({ value: 'v' });
    } finally {
      await client.close();
    }
  });

  it('refreshes an access token the server no longer takes, and goes on', async () => {
    const { client, oauth } = await connect(era);
    try {
      const first = oauth.stored;
      expect(first?.refresh_token).toEqual(expect.any(String));
      // The stored access token goes bad; the refresh token still stands.
      oauth.stored = { ...(first as NonNullable<typeof first>), access_token: 'not-a-token' };
      expect((await whoami(client)).auth.subject).toBe('alice');
      expect(oauth.stored?.access_token).not.toBe('not-a-token');
      expect(oauth.stored?.access_token).not.toBe(first?.access_token);
    } finally {
      await client.close();
    }
  });

  it('answers a missing scope with the 403 step-up challenge, and the call succeeds once the user grants it', async () => {
    const { client, oauth, transport } = await connect(era, ['notes:write']);
    try {
      expect(String(decodeJwt(oauth.stored?.access_token as string).scope).split(' ')).not.toContain('notes:write');
      const stepUp = await withAuthorization(oauth, transport, () =>
        client.callTool({ name: 'notes_put', arguments: { key: 'step-up', value: 'granted' } }),
      );
      expect(stepUp.isError).toBeFalsy();
      expect(String(decodeJwt(oauth.stored?.access_token as string).scope).split(' ')).toContain('notes:write');
    } finally {
      await client.close();
    }
  });
});

describe('tokens the server must refuse', () => {
  async function clientCredentials(forResource: string): Promise<string> {
    const response = await fetch(`${oidc.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${SERVICE.clientId}:${SERVICE.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: forResource, scope: 'notes:read' }),
    });
    const body = (await response.json()) as { access_token?: string };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body.access_token as string;
  }

  const callWith = (token: string) => postEnvelopeWith(resource, token, 'tools/list');

  it('takes a token the provider issued for this resource, and refuses one issued for another', async () => {
    const ours = await clientCredentials(resource);
    const accepted = await callWith(ours);
    expect(accepted.status).toBe(200);
    await accepted.text();

    const theirs = await clientCredentials(OTHER_RESOURCE);
    expect(decodeJwt(theirs).aud).toBe(OTHER_RESOURCE);
    const refused = await callWith(theirs);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect(await refused.json()).toMatchObject({ error: { data: { reason: 'invalid_token' } } });
  });
});
