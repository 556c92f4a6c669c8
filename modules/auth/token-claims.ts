// A verified token's claims (a JWT payload, an introspection response: RFC 7662 uses the same names) turned into the
// AuthInfo the SDK hands to handlers, which Kiln's principal reads: client, subject, scopes, tenant, expiry and the
// chosen claims. The token itself is never carried: nothing downstream may pass a client's token on.
import type { AuthInfo } from '@modelcontextprotocol/server';
import { InvalidTokenError } from './auth-errors.js';
import { expandScopes, type ScopeHierarchy } from './scope-hierarchy.js';

/** Verified claims, as a verifier returns them. */
export type TokenClaims = Readonly<Record<string, unknown>>;

/** What a token without the tenant claim runs as: no tenant (fail closed), its subject, or one fixed tenant. */
export type TenantFallback =
  | { readonly kind: 'none' }
  | { readonly kind: 'subject' }
  | { readonly kind: 'fixed'; readonly tenantId: string };

export interface ClaimMapping {
  /** The claim naming the tenant (MCP_AUTH_TENANT_CLAIM, default `tid`). */
  readonly tenantClaim: string;
  /** MCP_AUTH_TENANT_FALLBACK: `none` by default, so ctx.state refuses a token without a tenant. */
  readonly tenantFallback: TenantFallback;
  /** MCP_AUTH_SCOPE_HIERARCHY: scopes a granted scope implies. */
  readonly scopeHierarchy: ScopeHierarchy;
  /** MCP_AUTH_CLAIMS: claims copied to ctx.auth.claims. */
  readonly passClaims: readonly string[];
  /** MCP_AUTH_CLOCK_TOLERANCE_SECONDS: skew allowed on exp and nbf. */
  readonly clockToleranceSeconds: number;
  /**
   * Where granted scopes are read, together: a claim name, or a dotted path into nested objects
   * (`realm_access.roles`); `resource_access.*.roles` reads each client's roles as `<client>:<role>`. A string claim
   * is space-separated; a list is taken item by item.
   */
  readonly scopeClaims: readonly string[];
  /** Where the client id is read, the first present one winning. */
  readonly clientIdClaims: readonly string[];
  /** Claims a token must carry with one of the given values (Cognito's `token_use: access`), or at all (`*`). */
  readonly requiredClaims: Readonly<Record<string, readonly string[]>>;
}

export const DEFAULT_CLAIM_MAPPING: ClaimMapping = Object.freeze({
  tenantClaim: 'tid',
  tenantFallback: Object.freeze({ kind: 'none' }),
  scopeHierarchy: new Map(),
  passClaims: Object.freeze([]),
  clockToleranceSeconds: 30,
  scopeClaims: Object.freeze(['scope', 'scp']),
  clientIdClaims: Object.freeze(['client_id', 'azp', 'cid']),
  requiredClaims: Object.freeze({}),
});

/** The AuthInfo of verified `claims`; a token without `exp`, expired or not yet valid is an InvalidTokenError. */
export function authInfoFromClaims(claims: TokenClaims, mapping: ClaimMapping, now = Date.now()): AuthInfo {
  const seconds = now / 1000;
  const { exp, nbf } = claims;
  // Checked here too, not only by jose, so an opaque-token verifier gets the same rules.
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new InvalidTokenError('The token has no exp claim.');
  if (exp + mapping.clockToleranceSeconds <= seconds) throw new InvalidTokenError('The token has expired.');
  if (typeof nbf === 'number' && nbf - mapping.clockToleranceSeconds > seconds) {
    throw new InvalidTokenError('The token is not valid yet (nbf).');
  }
  for (const [name, allowed] of Object.entries(mapping.requiredClaims)) {
    const value = claims[name];
    if (value === undefined || value === null || value === '') {
      throw new InvalidTokenError(`The token has no ${name} claim.`);
    }
    if (!allowed.includes('*') && !allowed.includes(String(value))) {
      throw new InvalidTokenError(
        `The token's ${name} claim is ${JSON.stringify(value)}, not ${allowed.join(' or ')}.`,
      );
    }
  }
  const subject = stringClaim(claims.sub);
  const tenantId = stringClaim(claims[mapping.tenantClaim]) ?? fallbackTenant(mapping.tenantFallback, subject);
  const extra: Record<string, unknown> = {};
  if (mapping.passClaims.length > 0) extra.claims = pickClaims(claims, mapping.passClaims);
  if (subject !== undefined) extra.sub = subject;
  if (tenantId !== undefined) extra.tid = tenantId;
  return {
    // Left empty on purpose: AuthInfo reaches every handler's SDK context, and the token must reach none.
    token: '',
    clientId: mapping.clientIdClaims.map((name) => stringClaim(claims[name])).find((id) => id !== undefined) ?? '',
    scopes: expandScopes(grantedScopes(claims, mapping.scopeClaims), mapping.scopeHierarchy),
    expiresAt: exp,
    extra,
  };
}

/** Every scope the sources name (by default `scope`, RFC 8693/9068, and `scp`), deduplicated. */
function grantedScopes(claims: TokenClaims, sources: readonly string[]): string[] {
  const scopes: string[] = [];
  for (const source of sources) {
    for (const [prefix, value] of claimValues(claims, source)) {
      const items =
        typeof value === 'string'
          ? value.split(/\s+/)
          : Array.isArray(value)
            ? value.filter((item): item is string => typeof item === 'string')
            : [];
      scopes.push(...items.filter((item) => item !== '').map((item) => `${prefix}${item}`));
    }
  }
  return [...new Set(scopes)];
}

/**
 * The values at a claim path, each with the prefix its scopes get: a `*` segment walks every key of an object and
 * prefixes the key (`resource_access.*.roles` yields each client's roles as `client:role`).
 */
function claimValues(claims: TokenClaims, path: string): [string, unknown][] {
  let found: [string, unknown][] = [['', claims]];
  for (const segment of path.split('.')) {
    const next: [string, unknown][] = [];
    for (const [prefix, value] of found) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      const record = value as Record<string, unknown>;
      if (segment === '*') {
        for (const key of Object.keys(record)) next.push([`${prefix}${key}:`, record[key]]);
      } else if (Object.hasOwn(record, segment)) {
        next.push([prefix, record[segment]]);
      }
    }
    found = next;
  }
  return found;
}

function fallbackTenant(fallback: TenantFallback, subject: string | undefined): string | undefined {
  if (fallback.kind === 'fixed') return fallback.tenantId;
  if (fallback.kind === 'subject') return subject;
  return undefined;
}

function pickClaims(claims: TokenClaims, names: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) if (Object.hasOwn(claims, name)) picked[name] = claims[name];
  return picked;
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
