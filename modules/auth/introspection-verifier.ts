// Opaque access tokens: asks the authorization server's introspection endpoint (RFC 7662) whether a token is active,
// as a confidential client (client_secret_basic), and checks that it was issued for this server (its audience). Both
// answers are cached briefly, by a hash of the token: an active one until the cache time or its expiry, whichever
// comes first; an inactive one for a shorter while, so a flood of bad tokens costs one request each at most per
// while, and a revoked token is refused within the cache time. An endpoint that cannot answer is an
// AuthUnavailableError (503): a good token is never refused for it.
import { createHash } from 'node:crypto';
import { AuthUnavailableError, InvalidTokenError } from './auth-errors.js';
import type { TokenVerifier } from './jwt-verifiers.js';
import type { TokenClaims } from './token-claims.js';

export interface IntrospectionOptions {
  /** The introspection endpoint (OAUTH_INTROSPECTION_URL). */
  readonly endpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** This server's resource URI first, then any other audience accepted; the response's `aud` must name one. */
  readonly audiences: readonly string[];
  /** The issuer the response must name in `iss`, when it names one. */
  readonly issuer?: string;
  /** How long an active answer is reused (never past the token's `exp`). */
  readonly cacheMs: number;
  /** How long an inactive answer is reused. */
  readonly negativeCacheMs: number;
  readonly timeoutMs: number;
  readonly now?: () => number;
  readonly fetch?: typeof fetch;
}

/** Answers kept at most; the oldest goes first. */
const MAX_CACHED = 10_000;

type Cached =
  | { readonly until: number; readonly claims: TokenClaims }
  | { readonly until: number; readonly inactive: string };

export function introspectionVerifier(options: IntrospectionOptions): TokenVerifier {
  const now = options.now ?? Date.now;
  const send = options.fetch ?? fetch;
  const cache = new Map<string, Cached>();
  const pending = new Map<string, Promise<TokenClaims>>();
  const credentials = Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString('base64');

  const remember = (key: string, entry: Cached) => {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, entry);
  };

  async function introspect(token: string, key: string): Promise<TokenClaims> {
    let response: Response;
    try {
      response = await send(options.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${credentials}`,
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw new AuthUnavailableError(`The introspection endpoint could not be reached: ${String(error)}`, {
        cause: error,
      });
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new AuthUnavailableError(`The introspection endpoint answered ${response.status}.`);
    }
    const answer = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (typeof answer !== 'object' || answer === null || typeof answer.active !== 'boolean') {
      throw new AuthUnavailableError('The introspection endpoint answered something other than an RFC 7662 response.');
    }
    const refusal = refusalOf(answer, options);
    if (refusal !== undefined) {
      remember(key, { until: now() + options.negativeCacheMs, inactive: refusal });
      throw new InvalidTokenError(refusal);
    }
    const exp = typeof answer.exp === 'number' ? answer.exp * 1000 : now() + options.cacheMs;
    remember(key, { until: Math.min(now() + options.cacheMs, exp), claims: answer });
    return answer;
  }

  return {
    verify(token: string): Promise<TokenClaims> {
      const key = createHash('sha256').update(token).digest('base64url');
      const cached = cache.get(key);
      if (cached && cached.until > now()) {
        return 'claims' in cached
          ? Promise.resolve(cached.claims)
          : Promise.reject(new InvalidTokenError(cached.inactive));
      }
      if (cached) cache.delete(key);
      // Requests for one token at the same moment share one introspection.
      let asking = pending.get(key);
      if (!asking) {
        asking = introspect(token, key).finally(() => pending.delete(key));
        pending.set(key, asking);
      }
      return asking;
    },
  };
}

/** Why an introspection answer is refused (inactive, another audience or issuer), or undefined when it stands. */
function refusalOf(answer: Record<string, unknown>, options: IntrospectionOptions): string | undefined {
  if (answer.active !== true)
    return 'The token is not active (expired, revoked or unknown to the authorization server).';
  const audiences = typeof answer.aud === 'string' ? [answer.aud] : Array.isArray(answer.aud) ? answer.aud : [];
  if (!audiences.some((audience) => options.audiences.includes(audience as string))) {
    return 'The token was not issued for this server (aud).';
  }
  if (options.issuer !== undefined && answer.iss !== undefined && answer.iss !== options.issuer) {
    return 'The token was issued by another authorization server (iss).';
  }
  return undefined;
}
