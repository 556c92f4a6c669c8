// A resource server's token check: a verifier (jose for jwt and oauth modes, or your own for opaque tokens and
// introspection) and the claim mapping turn a bearer token into the AuthInfo handlers see, or into one of the two
// failures (InvalidTokenError → 401, AuthUnavailableError → 503). Also what the protected resource metadata lists.
import type { AuthInfo } from '@modelcontextprotocol/server';
import { kilnError } from '../../src/errors/index.js';
import { AuthUnavailableError, InvalidTokenError } from './auth-errors.js';
import type { TokenVerifier } from './jwt-verifiers.js';
import { authInfoFromClaims, type ClaimMapping, DEFAULT_CLAIM_MAPPING } from './token-claims.js';

export interface BearerAuthOptions {
  /** Verifies a token and returns its claims. */
  readonly verifier: TokenVerifier;
  /** How claims become the principal: tenant claim and fallback, scope hierarchy, claims passed on, clock skew. */
  readonly claims?: Partial<ClaimMapping>;
  /** The authorization servers the protected resource metadata lists (RFC 9728 `authorization_servers`). */
  readonly authorizationServers?: readonly string[];
  /** This server's canonical URI (RFC 8707), the metadata's `resource`; defaults to the MCP endpoint's URL. */
  readonly resource?: string;
}

/** The longest bearer token taken, in characters. */
export const MAX_TOKEN_LENGTH = 8192;

export class BearerAuth {
  readonly authorizationServers: readonly string[];
  readonly resource: string | undefined;
  private readonly verifier: TokenVerifier;
  private readonly mapping: ClaimMapping;

  constructor(options: BearerAuthOptions) {
    if (typeof options?.verifier?.verify !== 'function') {
      throw kilnError('auth_options_invalid', 'Bearer auth needs a verifier with a verify(token) method.');
    }
    for (const url of [...(options.authorizationServers ?? []), ...(options.resource ? [options.resource] : [])]) {
      if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
        throw kilnError('auth_options_invalid', `Bearer auth: ${JSON.stringify(url)} is not an absolute http(s) URL.`);
      }
    }
    this.verifier = options.verifier;
    this.mapping = { ...DEFAULT_CLAIM_MAPPING, ...options.claims };
    this.authorizationServers = [...(options.authorizationServers ?? [])];
    this.resource = options.resource;
  }

  /** The AuthInfo of a valid token. Throws InvalidTokenError or AuthUnavailableError (a verifier's other errors too). */
  async authenticate(token: string): Promise<AuthInfo> {
    // Far above any provider's access tokens; a larger one is refused before any work is spent on it.
    if (token.length > MAX_TOKEN_LENGTH) {
      throw new InvalidTokenError(`The token is longer than ${MAX_TOKEN_LENGTH} characters.`);
    }
    let claims: Awaited<ReturnType<TokenVerifier['verify']>>;
    try {
      claims = await this.verifier.verify(token);
    } catch (error) {
      if (error instanceof InvalidTokenError || error instanceof AuthUnavailableError) throw error;
      // A verifier that failed for its own reasons did not find the token bad: a 401 would discard a good token.
      throw new AuthUnavailableError(`The token verifier failed: ${error instanceof Error ? error.message : error}`, {
        cause: error,
      });
    }
    if (typeof claims !== 'object' || claims === null) throw new InvalidTokenError('The token has no claims.');
    return authInfoFromClaims(claims, this.mapping);
  }
}
