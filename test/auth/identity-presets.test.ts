// MCP_AUTH_PRESET: claim fixtures shaped like each provider's documented access tokens (written for these tests)
// turned into ctx.auth by the preset's mapping, each preset's refusals, explicit settings winning over a preset, and
// over real HTTP a Cognito-shaped token checked by client_id (it has no aud) and a Keycloak realm role meeting @Scopes.

import { authFromEnv, authInfoFromClaims, DEFAULT_CLAIM_MAPPING, InvalidTokenError } from 'mcp-kiln/auth';
import { KilnBootError } from 'mcp-kiln/errors';
import { startTestIssuer, type TestIssuer } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServer, callWith, RESOURCE, startAuthServer } from '../http/helpers/auth-server.js';

const EXP = Math.floor(Date.now() / 1000) + 3600;
const BASE = {
  MCP_AUTH_MODE: 'oauth',
  OAUTH_ISSUER_URL: 'https://idp.example',
  OAUTH_AUDIENCE: 'https://mcp.example/mcp',
};

/** ctx.auth (as AuthInfo) of `claims` under the mapping `env` configures. */
function authOf(env: Record<string, string>, claims: Record<string, unknown>) {
  const options = authFromEnv({ ...BASE, ...env });
  return authInfoFromClaims({ exp: EXP, ...claims }, { ...DEFAULT_CLAIM_MAPPING, ...options?.claims });
}

describe('presets', () => {
  it('entra: tenant tid, delegated scp and application roles as scopes, client azp, oid passed on', () => {
    const claims = {
      aud: 'api://notes',
      iss: 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0',
      tid: '9188040d-6c67-4c5b-b112-36a304b66dad',
      oid: '00000000-0000-0000-66f3-3332eca7ea81',
      sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
      azp: '6e74172b-be56-4843-9ff4-e66a39bb12e3',
      scp: 'Notes.Read Notes.Write',
      roles: ['Notes.Admin'],
      ver: '2.0',
    };
    expect(authOf({ MCP_AUTH_PRESET: 'entra' }, claims)).toMatchObject({
      clientId: '6e74172b-be56-4843-9ff4-e66a39bb12e3',
      scopes: ['Notes.Read', 'Notes.Write', 'Notes.Admin'],
      extra: { tid: claims.tid, sub: claims.sub, claims: { oid: claims.oid } },
    });
    // A v1 token names its client in appid.
    expect(authOf({ MCP_AUTH_PRESET: 'entra' }, { tid: 't', appid: 'v1-client', scp: 'x' }).clientId).toBe('v1-client');
    expect(() => authOf({ MCP_AUTH_PRESET: 'entra' }, { sub: 'no-tenant', scp: 'x' })).toThrow(
      new InvalidTokenError('The token has no tid claim.'),
    );
  });

  it('auth0: the organization is the tenant; scope and RBAC permissions together', () => {
    const claims = {
      iss: 'https://example.us.auth0.com/',
      sub: 'auth0|64a1f0c2e1b2',
      aud: ['https://mcp.example/mcp', 'https://example.us.auth0.com/userinfo'],
      azp: 'Zr9aB3cD4eF5gH6iJ7kL',
      scope: 'openid notes:read',
      permissions: ['notes:write'],
      org_id: 'org_8c2wa7hk',
    };
    expect(authOf({ MCP_AUTH_PRESET: 'auth0' }, claims)).toMatchObject({
      clientId: 'Zr9aB3cD4eF5gH6iJ7kL',
      scopes: ['openid', 'notes:read', 'notes:write'],
      extra: { tid: 'org_8c2wa7hk', sub: 'auth0|64a1f0c2e1b2' },
    });
  });

  it('okta: scp as a list, the client cid, uid passed on, no tenant of its own', () => {
    const claims = {
      ver: 1,
      iss: 'https://example.okta.com/oauth2/default',
      aud: 'api://default',
      cid: '0oa1b2c3d4e5f6g7h8i9',
      uid: '00u1a2b3c4d5e6f7g8h9',
      scp: ['notes.read', 'offline_access'],
      sub: 'alice@example.com',
    };
    const auth = authOf({ MCP_AUTH_PRESET: 'okta' }, claims);
    expect(auth).toMatchObject({
      clientId: '0oa1b2c3d4e5f6g7h8i9',
      scopes: ['notes.read', 'offline_access'],
      extra: { sub: 'alice@example.com', claims: { uid: '00u1a2b3c4d5e6f7g8h9' } },
    });
    expect(auth.extra?.tid).toBeUndefined();
    // The tenant comes from a fallback (or a claim the operator adds).
    expect(authOf({ MCP_AUTH_PRESET: 'okta', MCP_AUTH_TENANT_FALLBACK: 'subject' }, claims).extra?.tid).toBe(
      'alice@example.com',
    );
  });

  it('keycloak: realm roles, and each client role as client:role, count as scopes', () => {
    const claims = {
      iss: 'https://sso.example.com/realms/acme',
      azp: 'mcp-client',
      sub: 'f1b2c3d4-0000-4000-8000-000000000001',
      scope: 'profile email',
      realm_access: { roles: ['notes:read', 'offline_access'] },
      resource_access: { 'mcp-server': { roles: ['admin'] }, account: { roles: ['view-profile'] } },
      preferred_username: 'alice',
    };
    expect(authOf({ MCP_AUTH_PRESET: 'keycloak' }, claims)).toMatchObject({
      clientId: 'mcp-client',
      scopes: ['profile', 'email', 'notes:read', 'offline_access', 'mcp-server:admin', 'account:view-profile'],
      extra: { claims: { preferred_username: 'alice' } },
    });
  });

  it('cognito: an access token (token_use) names its app client in client_id; groups count as scopes', () => {
    const claims = {
      sub: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
      'cognito:groups': ['editors'],
      iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI',
      client_id: '3n4b5urk1ft4fl3mg5e62d9ado',
      token_use: 'access',
      scope: 'notes/read',
      username: 'alice',
    };
    expect(authOf({ MCP_AUTH_PRESET: 'cognito' }, claims)).toMatchObject({
      clientId: '3n4b5urk1ft4fl3mg5e62d9ado',
      scopes: ['notes/read', 'editors'],
      extra: { claims: { username: 'alice' } },
    });
    expect(() => authOf({ MCP_AUTH_PRESET: 'cognito' }, { ...claims, token_use: 'id' })).toThrow(
      new InvalidTokenError('The token\'s token_use claim is "id", not access.'),
    );
  });

  it('google: the Workspace domain hd is the tenant, the client azp, email passed on', () => {
    const claims = {
      iss: 'https://accounts.google.com',
      azp: '1234567890-abc.apps.googleusercontent.com',
      aud: 'https://mcp.example/mcp',
      sub: '110169484474386276334',
      hd: 'example.com',
      email: 'alice@example.com',
    };
    expect(authOf({ MCP_AUTH_PRESET: 'google' }, claims)).toMatchObject({
      clientId: '1234567890-abc.apps.googleusercontent.com',
      extra: { tid: 'example.com', claims: { email: 'alice@example.com' } },
    });
  });

  it('lets every explicit setting win over the preset', () => {
    const claims = { org_id: 'org_1', 'https://example.com/tenant': 'acme', scope: 'a', permissions: ['b'], azp: 'c' };
    expect(
      authOf(
        {
          MCP_AUTH_PRESET: 'auth0',
          MCP_AUTH_TENANT_CLAIM: 'https://example.com/tenant',
          MCP_AUTH_SCOPE_CLAIMS: 'permissions',
          MCP_AUTH_CLIENT_ID_CLAIMS: 'client_id',
        },
        claims,
      ),
    ).toMatchObject({ clientId: '', scopes: ['b'], extra: { tid: 'acme' } });
  });

  it('refuses an unknown preset at boot, naming the ones it knows', () => {
    let error: unknown;
    try {
      authFromEnv({ ...BASE, MCP_AUTH_PRESET: 'azure' });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(KilnBootError);
    expect((error as KilnBootError).problems[0]).toMatch(
      /MCP_AUTH_PRESET="azure".*entra.*auth0.*okta.*keycloak.*cognito.*google/,
    );
  });
});

describe('presets over real HTTP', () => {
  let noAudience: TestIssuer;
  let issuer: TestIssuer;
  let cognito: AuthServer;
  let keycloak: AuthServer;
  beforeAll(async () => {
    // Cognito access tokens carry no aud: this issuer mints none.
    noAudience = await startTestIssuer();
    cognito = await startAuthServer(noAudience, {
      OAUTH_AUDIENCE: RESOURCE,
      MCP_AUTH_PRESET: 'cognito',
      OAUTH_EXTRA_AUDIENCES: 'app-client-1',
      MCP_AUTH_TENANT_FALLBACK: 'subject',
    });
    issuer = await startTestIssuer({ audience: RESOURCE });
    keycloak = await startAuthServer(issuer, { MCP_AUTH_PRESET: 'keycloak', MCP_AUTH_TENANT_FALLBACK: 'subject' });
  });
  afterAll(async () => {
    await cognito?.close();
    await keycloak?.close();
    await noAudience?.close();
    await issuer?.close();
  });

  it('cognito: takes an access token for this app client, refuses another client and an ID token', async () => {
    const token = (clientId: string, tokenUse: string) =>
      noAudience.mintToken({ clientId, claims: { token_use: tokenUse } });
    expect((await callWith(cognito.endpoint, await token('app-client-1', 'access'), 'auth_whoami')).status).toBe(200);
    expect((await callWith(cognito.endpoint, await token('other-client', 'access'), 'auth_whoami')).status).toBe(401);
    expect((await callWith(cognito.endpoint, await token('app-client-1', 'id'), 'auth_whoami')).status).toBe(401);
  });

  it('keycloak: a realm role meets a tool’s @Scopes, and its absence gets the 403 step-up', async () => {
    const withRole = await issuer.mintToken({ claims: { realm_access: { roles: ['notes:read'] } } });
    expect((await callWith(keycloak.endpoint, withRole, 'notes_list')).status).toBe(200);
    const without = await issuer.mintToken({ claims: { realm_access: { roles: ['other'] } } });
    const refused = await callWith(keycloak.endpoint, without, 'notes_list');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
  });
});
