// Finds an authorization server's JWKS URI from its metadata when OAUTH_JWKS_URI is not set: RFC 8414
// (`/.well-known/oauth-authorization-server`, inserted before the issuer's path), then OpenID Connect Discovery
// (`/.well-known/openid-configuration`, appended). Looked up on the first token, not at boot, so a server starts
// while its authorization server is down; a failed lookup is retried only after the cooldown.
import { AuthUnavailableError } from './auth-errors.js';
import { secureUrl } from './secure-url.js';

export interface DiscoveryOptions {
  readonly timeoutMs: number;
  readonly cooldownMs: number;
  readonly now?: () => number;
}

/** A function resolving the issuer's JWKS URI once, remembering a failure for `cooldownMs`. */
export function discoverJwksUri(issuer: string, options: DiscoveryOptions): () => Promise<URL> {
  const now = options.now ?? Date.now;
  let found: Promise<URL> | undefined;
  let failedAt = Number.NEGATIVE_INFINITY;
  let failure: Error | undefined;
  return () => {
    if (found) return found;
    if (failure && now() - failedAt < options.cooldownMs) return Promise.reject(failure);
    const lookup = lookupJwksUri(issuer, options);
    found = lookup;
    lookup.catch((error: Error) => {
      found = undefined;
      failure = error;
      failedAt = now();
    });
    return lookup;
  };
}

/** The metadata documents to try, in order: RFC 8414, then OpenID Connect Discovery. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

async function lookupJwksUri(issuer: string, options: DiscoveryOptions): Promise<URL> {
  const problems: string[] = [];
  for (const location of metadataUrls(issuer)) {
    let metadata: unknown;
    try {
      const response = await fetch(location, {
        headers: { accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (!response.ok) {
        problems.push(`${location} answered ${response.status}`);
        continue;
      }
      metadata = await response.json();
    } catch (error) {
      problems.push(`${location}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const { issuer: stated, jwks_uri: jwksUri } = (metadata ?? {}) as { issuer?: unknown; jwks_uri?: unknown };
    // RFC 8414 §3.3: a document stating another issuer must not be used.
    if (typeof stated !== 'string' || trimSlash(stated) !== trimSlash(issuer)) {
      problems.push(`${location} names the issuer ${JSON.stringify(stated)}, not ${issuer}`);
      continue;
    }
    const url = typeof jwksUri === 'string' ? secureUrl(jwksUri) : undefined;
    if (!url) {
      problems.push(`${location} has no jwks_uri that is https (or http on loopback)`);
      continue;
    }
    return url;
  }
  throw new AuthUnavailableError(`Could not discover the JWKS of ${issuer}: ${problems.join('; ')}.`);
}

function trimSlash(value: string): string {
  return value.endsWith('/') ? value.slice(0, -1) : value;
}
