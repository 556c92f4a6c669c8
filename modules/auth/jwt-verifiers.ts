// The two JWT verifiers, both jose: `jwt` mode checks an HS256 signature with a shared secret (development), `oauth`
// mode checks tokens of an external authorization server against its JWKS (fetched, cached, refetched on an unknown
// key id at most once per cooldown, so a key rotation is picked up and a flood of bogus key ids is not). A token that
// fails is an InvalidTokenError; keys that could not be fetched are an AuthUnavailableError.
import { createRemoteJWKSet, errors, type JWTVerifyOptions, jwtVerify } from 'jose';
import { AuthUnavailableError, InvalidTokenError } from './auth-errors.js';
import { discoverJwksUri } from './issuer-metadata.js';
import type { TokenClaims } from './token-claims.js';

/** Verifies a token and returns its claims; pluggable (introspection, opaque tokens, a test double). */
export interface TokenVerifier {
  /**
   * The verified claims of `token` (`exp` required; `sub`, `client_id`, `scope`, the tenant claim as available).
   * Throw InvalidTokenError for a bad token, AuthUnavailableError when it cannot be verified right now.
   */
  verify(token: string): Promise<TokenClaims>;
}

export interface SharedSecretOptions {
  /** At least 32 bytes. */
  readonly secretKey: string;
  readonly issuer?: string;
  readonly audience?: string;
  readonly clockToleranceSeconds: number;
}

/** `jwt` mode: HS256 tokens signed with a shared secret (MCP_AUTH_SECRET_KEY). */
export function sharedSecretVerifier(options: SharedSecretOptions): TokenVerifier {
  const key = new TextEncoder().encode(options.secretKey);
  const verifyOptions: JWTVerifyOptions = {
    algorithms: ['HS256'],
    clockTolerance: options.clockToleranceSeconds,
    requiredClaims: ['exp'],
    ...(options.issuer ? { issuer: options.issuer } : {}),
    ...(options.audience ? { audience: options.audience } : {}),
  };
  return { verify: (token) => verified(jwtVerify(token, key, verifyOptions)) };
}

export interface JwksOptions {
  readonly issuer: string;
  /** This server's resource URI first, then any other audience accepted. */
  readonly audiences: readonly string[];
  /** Discovered from the issuer's metadata when absent. */
  readonly jwksUri?: string;
  readonly cooldownMs: number;
  readonly timeoutMs: number;
  /** Never HS* or none: the config reader refuses them. */
  readonly algorithms: readonly string[];
  /** Required `typ` header (such as `at+jwt`, RFC 9068); unchecked when absent. */
  readonly tokenType?: string;
  /** The claim that must name one of `audiences`: `aud` (the default), or `client_id` for tokens without `aud`. */
  readonly audienceClaim?: 'aud' | 'client_id';
  readonly clockToleranceSeconds: number;
  /** The clock the failure cooldown is measured with; Date.now unless a test says otherwise. */
  readonly now?: () => number;
}

/** `oauth` mode: tokens of an external authorization server, checked against its published keys. */
export function jwksVerifier(options: JwksOptions): TokenVerifier {
  const verifyOptions: JWTVerifyOptions = {
    issuer: options.issuer,
    ...(options.audienceClaim === 'client_id' ? {} : { audience: [...options.audiences] }),
    algorithms: [...options.algorithms],
    clockTolerance: options.clockToleranceSeconds,
    requiredClaims: ['exp'],
    ...(options.tokenType ? { typ: options.tokenType } : {}),
  };
  const jwksOptions = { cooldownDuration: options.cooldownMs, timeoutDuration: options.timeoutMs };
  const jwksUri = options.jwksUri
    ? () => Promise.resolve(new URL(options.jwksUri as string))
    : discoverJwksUri(options.issuer, options);
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  // A failed fetch of the keys (or of the issuer's metadata) is remembered for the cooldown: while the authorization
  // server is down, requests (forged ones included) are answered from that, not with an outbound fetch each.
  const now = options.now ?? Date.now;
  let failed: { readonly error: AuthUnavailableError; readonly until: number } | undefined;
  return {
    verify: async (token) => {
      if (failed && now() < failed.until) throw failed.error;
      try {
        keys ??= createRemoteJWKSet(await jwksUri(), jwksOptions);
        const claims = await verified(jwtVerify(token, keys, verifyOptions));
        failed = undefined;
        if (options.audienceClaim === 'client_id' && !options.audiences.includes(claims.client_id as string)) {
          throw new InvalidTokenError("The token's client_id is not accepted.");
        }
        return claims;
      } catch (error) {
        if (error instanceof AuthUnavailableError) failed = { error, until: now() + options.cooldownMs };
        throw error;
      }
    },
  };
}

async function verified(
  verification: Promise<{ payload: TokenClaims; protectedHeader: { cty?: string } }>,
): Promise<TokenClaims> {
  let result: Awaited<typeof verification>;
  try {
    result = await verification;
  } catch (error) {
    throw joseFailure(error);
  }
  // An access token is one JWT: a nested one (RFC 7519 §5.2) would have its inner token judged by nobody.
  if (result.protectedHeader.cty?.toUpperCase() === 'JWT') {
    throw new InvalidTokenError('Nested JWTs (cty: JWT) are not accepted as access tokens.');
  }
  return result.payload;
}

/** jose's failure as one of the two verdicts; anything that is not about the token itself means "cannot verify". */
function joseFailure(error: unknown): Error {
  if (error instanceof InvalidTokenError || error instanceof AuthUnavailableError) return error;
  if (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    !(error instanceof errors.JOSEError)
  ) {
    return new AuthUnavailableError(`The authorization server's keys could not be fetched: ${describe(error)}`, {
      cause: error,
    });
  }
  // ERR_JOSE_GENERIC is what jose throws for a JWKS response that is not 200 or not JSON.
  if (error.code === errors.JOSEError.code) {
    return new AuthUnavailableError(`The authorization server's keys could not be fetched: ${error.message}`, {
      cause: error,
    });
  }
  return new InvalidTokenError(invalidTokenDescription(error), { cause: error });
}

function invalidTokenDescription(error: InstanceType<typeof errors.JOSEError>): string {
  if (error instanceof errors.JWTExpired) return 'The token has expired.';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === 'missing') return `The token has no ${error.claim} claim.`;
    return error.claim === 'nbf' ? 'The token is not valid yet (nbf).' : `The token's ${error.claim} is not accepted.`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The token is signed with an algorithm this server refuses.';
  if (error instanceof errors.JWKSNoMatchingKey) return "No key of the authorization server matches the token's kid.";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "The token's signature does not verify.";
  return 'The token is not a well-formed signed JWT.';
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
