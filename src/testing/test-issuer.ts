// A local OAuth authorization server for tests: a key pair (jose), its JWKS and RFC 8414 metadata served on a
// loopback port, and `mintToken` for access tokens with whatever claims a test needs. Point a server at it with
// `issuer.oauthEnv(audience)` (MCP_AUTH_MODE=oauth), then call it over HTTP with `Authorization: Bearer <token>`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

export type TestIssuerAlgorithm = 'RS256' | 'PS256' | 'ES256' | 'EdDSA';

export interface TestIssuerOptions {
  /** The signing algorithm; default RS256. */
  readonly algorithm?: TestIssuerAlgorithm;
  /** The audience minted tokens carry unless `mintToken` says otherwise: your server's resource URI. */
  readonly audience?: string;
  /** The claim `tenant` is written to; default `tid`. */
  readonly tenantClaim?: string;
}

export interface MintTokenOptions {
  /** `sub`; default `test-user`. */
  readonly sub?: string;
  /** `client_id`; default `test-client`. */
  readonly clientId?: string;
  /** The tenant claim (`tid` unless the issuer was given another); omitted, the token names no tenant. */
  readonly tenant?: string;
  /** `scope`, space-separated. */
  readonly scopes?: readonly string[];
  /** `aud`; default the issuer's audience. */
  readonly aud?: string | readonly string[];
  /** `iss`; default this issuer. */
  readonly iss?: string;
  /** `exp` in seconds since the epoch; default an hour from now; `null` leaves it out. */
  readonly exp?: number | null;
  /** `nbf` in seconds since the epoch. */
  readonly nbf?: number;
  /** The `kid` header; default the current key's (another value names a key the JWKS does not have). */
  readonly kid?: string;
  /** The `typ` header, such as `at+jwt`. */
  readonly typ?: string;
  /**
   * More protected header parameters (`cty`, `crit` and the parameters it names, ...), to test how a server takes
   * tokens it should refuse. A `crit` list is signed as given.
   */
  readonly header?: Readonly<Record<string, unknown>>;
  /** Any other claims. */
  readonly claims?: Readonly<Record<string, unknown>>;
}

export interface TestIssuer {
  /** The issuer URL (`iss`), `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  readonly jwksUri: string;
  /** How many times the JWKS has been fetched. */
  readonly jwksRequests: number;
  /** MCP_AUTH_MODE=oauth settings for a server whose resource URI (token audience) is `audience`. */
  oauthEnv(audience?: string): Record<string, string>;
  /** A signed access token; see MintTokenOptions for the defaults. */
  mintToken(options?: MintTokenOptions): Promise<string>;
  /** Signs with a new key from now on; the JWKS keeps the previous key too unless `dropPrevious`. */
  rotateKey(options?: { readonly dropPrevious?: boolean }): Promise<void>;
  /** `false` makes the JWKS and metadata answer 503, as an authorization server in an outage. */
  setAvailable(available: boolean): void;
  close(): Promise<void>;
}

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

/** Starts a test issuer on 127.0.0.1 and a free port; close it when done. */
export async function startTestIssuer(options: TestIssuerOptions = {}): Promise<TestIssuer> {
  const algorithm = options.algorithm ?? 'RS256';
  const tenantClaim = options.tenantClaim ?? 'tid';
  let generation = 0;
  const newKey = async (): Promise<SigningKey> => {
    const kid = `test-key-${++generation}`;
    const { privateKey, publicKey } = await generateKeyPair(algorithm, { extractable: true });
    return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: algorithm, use: 'sig' } };
  };
  let keys = [await newKey()];
  let available = true;
  let jwksRequests = 0;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const send = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === '/jwks') jwksRequests++;
    if (!available) return send(503, { error: 'temporarily_unavailable' });
    if (path === '/jwks') return send(200, { keys: keys.map((key) => key.publicJwk) });
    if (path === '/.well-known/oauth-authorization-server') {
      return send(200, {
        issuer,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        token_endpoint: `${issuer}/token`,
        authorization_endpoint: `${issuer}/authorize`,
      });
    }
    return send(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    get jwksRequests() {
      return jwksRequests;
    },
    oauthEnv: (audience = options.audience) => ({
      MCP_AUTH_MODE: 'oauth',
      OAUTH_ISSUER_URL: issuer,
      OAUTH_JWKS_URI: `${issuer}/jwks`,
      ...(audience ? { OAUTH_AUDIENCE: audience } : {}),
    }),
    mintToken: async (mint = {}) => {
      const current = keys.at(-1) as SigningKey;
      const now = Math.floor(Date.now() / 1000);
      const claims: Record<string, unknown> = {
        client_id: mint.clientId ?? 'test-client',
        ...(mint.scopes ? { scope: mint.scopes.join(' ') } : {}),
        ...(mint.tenant !== undefined ? { [tenantClaim]: mint.tenant } : {}),
        ...(mint.nbf !== undefined ? { nbf: mint.nbf } : {}),
        ...mint.claims,
      };
      const jwt = new SignJWT(claims)
        .setProtectedHeader({
          ...mint.header,
          alg: algorithm,
          kid: mint.kid ?? current.kid,
          ...(mint.typ ? { typ: mint.typ } : {}),
        })
        .setIssuer(mint.iss ?? issuer)
        .setSubject(mint.sub ?? 'test-user')
        .setIssuedAt(now);
      const audience = mint.aud ?? options.audience;
      if (audience !== undefined) jwt.setAudience(typeof audience === 'string' ? audience : [...audience]);
      const exp = mint.exp === undefined ? now + 3600 : mint.exp;
      if (exp !== null) jwt.setExpirationTime(exp);
      const crit = mint.header?.crit;
      const recognized = Array.isArray(crit) ? Object.fromEntries(crit.map((name) => [String(name), true])) : undefined;
      return jwt.sign(current.privateKey, recognized ? { crit: recognized } : undefined);
    },
    rotateKey: async ({ dropPrevious = false } = {}) => {
      const next = await newKey();
      keys = dropPrevious ? [next] : [...keys, next];
    },
    setAvailable: (up) => {
      available = up;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
