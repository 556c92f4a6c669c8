// The auth module's environment reader: each mode's required settings, and every missing or insecure one named in
// one boot error (a secret's length is named, never its value). `none` configures nothing.

import { authFromEnv, BearerAuth } from 'mcp-kiln/auth';
import { KilnBootError } from 'mcp-kiln/errors';
import { describe, expect, it } from 'vitest';

const SECRET = 'a-development-secret-of-32-bytes!';

function bootError(env: Record<string, string>): readonly string[] {
  try {
    authFromEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(KilnBootError);
    return (error as KilnBootError).problems;
  }
  throw new Error('expected a boot error');
}

describe('authFromEnv', () => {
  it('configures nothing for none, the default', () => {
    expect(authFromEnv({})).toBeUndefined();
    expect(authFromEnv({ MCP_AUTH_MODE: 'none' })).toBeUndefined();
  });

  it('names an unknown mode', () => {
    expect(bootError({ MCP_AUTH_MODE: 'basic' })).toEqual([
      'Invalid configuration: MCP_AUTH_MODE="basic" is not valid: expected one of none, jwt, oauth.',
    ]);
  });

  describe('jwt', () => {
    it('requires MCP_AUTH_SECRET_KEY', () => {
      expect(bootError({ MCP_AUTH_MODE: 'jwt' })).toEqual([
        'Invalid configuration: MCP_AUTH_SECRET_KEY is required when MCP_AUTH_MODE=jwt: set it to a secret of at ' +
          'least 32 bytes.',
      ]);
    });

    it('refuses a secret under 32 bytes, naming its length and never its value', () => {
      const [problem] = bootError({ MCP_AUTH_MODE: 'jwt', MCP_AUTH_SECRET_KEY: 'hunter2-hunter2' });
      expect(problem).toContain('MCP_AUTH_SECRET_KEY is too short (15 bytes)');
      expect(problem).not.toContain('hunter2');
    });

    it('lists no authorization server (the issuer is only what iss must say) and an absolute audience as the resource', () => {
      const options = authFromEnv({
        MCP_AUTH_MODE: 'jwt',
        MCP_AUTH_SECRET_KEY: SECRET,
        MCP_JWT_EXPECTED_ISSUER: 'https://dev.example',
        MCP_JWT_EXPECTED_AUDIENCE: 'https://mcp.example/mcp',
      });
      expect(options).toMatchObject({ authorizationServers: [], resource: 'https://mcp.example/mcp' });
      expect(new BearerAuth(options as NonNullable<typeof options>).resource).toBe('https://mcp.example/mcp');
    });

    it.each(['my-service', 'urn:example:issuer', 'https://dev.example'])(
      'boots with any issuer string (%s), as iss may be any string',
      (issuer) => {
        const options = authFromEnv({
          MCP_AUTH_MODE: 'jwt',
          MCP_AUTH_SECRET_KEY: SECRET,
          MCP_JWT_EXPECTED_ISSUER: issuer,
        });
        expect(() => new BearerAuth(options as NonNullable<typeof options>)).not.toThrow();
      },
    );
  });

  describe('oauth', () => {
    it('requires the issuer and the audience, naming both at once', () => {
      const problems = bootError({ MCP_AUTH_MODE: 'oauth' });
      expect(problems).toHaveLength(2);
      expect(problems[0]).toContain('OAUTH_ISSUER_URL is required when MCP_AUTH_MODE=oauth');
      expect(problems[1]).toContain('OAUTH_AUDIENCE is required when MCP_AUTH_MODE=oauth');
    });

    it('refuses an issuer or JWKS URI over plain HTTP (off loopback), and an audience that is not a URL', () => {
      const problems = bootError({
        MCP_AUTH_MODE: 'oauth',
        OAUTH_ISSUER_URL: 'http://auth.example',
        OAUTH_AUDIENCE: 'my-api',
        OAUTH_JWKS_URI: 'http://auth.example/jwks',
      });
      expect(problems).toEqual([
        'Invalid configuration: OAUTH_ISSUER_URL="http://auth.example" is not valid: expected an https URL (http on loopback).',
        'Invalid configuration: OAUTH_AUDIENCE="my-api" is not valid: expected this server\'s absolute URL.',
        'Invalid configuration: OAUTH_JWKS_URI="http://auth.example/jwks" is not valid: expected an https URL (http on loopback).',
      ]);
    });

    it('refuses HS* and none among OAUTH_ALGORITHMS', () => {
      const [problem] = bootError({
        MCP_AUTH_MODE: 'oauth',
        OAUTH_ISSUER_URL: 'https://auth.example',
        OAUTH_AUDIENCE: 'https://mcp.example/mcp',
        OAUTH_ALGORITHMS: 'RS256,HS256,none',
      });
      expect(problem).toContain('OAUTH_ALGORITHMS names HS256, none');
      expect(problem).toContain('never HS* (a shared secret) or none');
    });

    it('names bad numbers, an incomplete fixed-tenant fallback and a malformed hierarchy', () => {
      const problems = bootError({
        MCP_AUTH_MODE: 'oauth',
        OAUTH_ISSUER_URL: 'https://auth.example',
        OAUTH_AUDIENCE: 'https://mcp.example/mcp',
        OAUTH_JWKS_COOLDOWN_MS: '-1',
        OAUTH_JWKS_TIMEOUT_MS: 'soon',
        MCP_AUTH_CLOCK_TOLERANCE_SECONDS: '3600',
        MCP_AUTH_TENANT_FALLBACK: 'fixed',
        MCP_AUTH_SCOPE_HIERARCHY: 'admin>write,broken',
      });
      expect(problems).toEqual([
        'Invalid configuration: MCP_AUTH_FIXED_TENANT is required when MCP_AUTH_TENANT_FALLBACK=fixed: name the tenant to use.',
        'Invalid configuration: MCP_AUTH_SCOPE_HIERARCHY: "broken" is not a parent>child pair of scope names, such as notes:admin>notes:read.',
        'Invalid configuration: MCP_AUTH_CLOCK_TOLERANCE_SECONDS="3600" is not valid: expected an integer from 0 to 300.',
        'Invalid configuration: OAUTH_JWKS_COOLDOWN_MS="-1" is not valid: expected an integer from 1000 to 3600000.',
        'Invalid configuration: OAUTH_JWKS_TIMEOUT_MS="soon" is not valid: expected an integer from 100 to 60000.',
      ]);
    });

    it('takes the audience as the resource and the issuer as the authorization server', () => {
      const options = authFromEnv({
        MCP_AUTH_MODE: 'oauth',
        OAUTH_ISSUER_URL: 'https://auth.example',
        OAUTH_AUDIENCE: 'https://mcp.example/mcp',
        MCP_AUTH_TENANT_CLAIM: 'org',
        MCP_AUTH_TENANT_FALLBACK: 'fixed',
        MCP_AUTH_FIXED_TENANT: 'shared',
        MCP_AUTH_CLAIMS: 'email,groups',
      });
      expect(options).toMatchObject({
        resource: 'https://mcp.example/mcp',
        authorizationServers: ['https://auth.example'],
        claims: {
          tenantClaim: 'org',
          tenantFallback: { kind: 'fixed', tenantId: 'shared' },
          passClaims: ['email', 'groups'],
          clockToleranceSeconds: 30,
        },
      });
    });
  });
});

describe('BearerAuth options given in code', () => {
  it('refuses a verifier without verify() and URLs that are not absolute http(s)', () => {
    expect(() => new BearerAuth({ verifier: {} as never })).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ reason: 'auth_options_invalid' }) }),
    );
    const verifier = { verify: async () => ({ exp: 1 }) };
    expect(() => new BearerAuth({ verifier, resource: 'mcp.example' })).toThrow(/not an absolute http\(s\) URL/);
    expect(() => new BearerAuth({ verifier, authorizationServers: ['ftp://as.example'] })).toThrow(/absolute/);
  });
});
