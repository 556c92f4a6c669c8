// A failed fetch of an authorization server's keys is remembered for the cooldown: while the server is down, every
// request (forged or not) is refused as "cannot verify" without another outbound fetch, until the cooldown has
// passed. The cooldown has a floor of 1 s (OAUTH_JWKS_COOLDOWN_MS=0 is refused).
import { createServer, type Server } from 'node:http';
import { AuthUnavailableError, authFromEnv, jwksVerifier } from 'mcp-kiln/auth';
import { afterEach, describe, expect, it } from 'vitest';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A JWKS endpoint that is down (503), counting the fetches it gets. */
async function downJwks(): Promise<{ url: string; fetches: () => number }> {
  let fetches = 0;
  server = createServer((_request, response) => {
    fetches += 1;
    response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/jwks.json`, fetches: () => fetches };
}

const FORGED = 'eyJhbGciOiJSUzI1NiIsImtpZCI6Im5vcGUifQ.eyJzdWIiOiJtYWxsb3J5In0.c2lnbmF0dXJl';

describe('a failed JWKS fetch', () => {
  it('is answered from memory for the cooldown, then fetched again', async () => {
    const jwks = await downJwks();
    let now = 1_000_000;
    const verifier = jwksVerifier({
      issuer: 'https://as.example',
      audiences: ['https://mcp.example/mcp'],
      jwksUri: jwks.url,
      cooldownMs: 30_000,
      timeoutMs: 2_000,
      algorithms: ['RS256'],
      clockToleranceSeconds: 0,
      now: () => now,
    });
    for (let i = 0; i < 5; i++) await expect(verifier.verify(FORGED)).rejects.toBeInstanceOf(AuthUnavailableError);
    expect(jwks.fetches()).toBe(1);
    now += 29_999;
    await expect(verifier.verify(FORGED)).rejects.toBeInstanceOf(AuthUnavailableError);
    expect(jwks.fetches()).toBe(1);
    now += 2;
    await expect(verifier.verify(FORGED)).rejects.toBeInstanceOf(AuthUnavailableError);
    expect(jwks.fetches()).toBe(2);
  });

  it('has a cooldown of at least 1 s: 0 stops boot, naming the range', () => {
    expect(() =>
      authFromEnv({
        MCP_AUTH_MODE: 'oauth',
        OAUTH_ISSUER_URL: 'https://as.example',
        OAUTH_AUDIENCE: 'https://mcp.example/mcp',
        OAUTH_JWKS_COOLDOWN_MS: '0',
      }),
    ).toThrow('OAUTH_JWKS_COOLDOWN_MS="0" is not valid: expected an integer from 1000 to 3600000.');
  });
});
