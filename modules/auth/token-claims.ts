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
}

export const DEFAULT_CLAIM_MAPPING: ClaimMapping = Object.freeze({
  tenantClaim: 'tid',
  tenantFallback: Object.freeze({ kind: 'none' }),
  scopeHierarchy: new Map(),
  passClaims: Object.freeze([]),
  clockToleranceSeconds: 30,
});

const CLIENT_ID_CLAIMS = ['client_id', 'azp', 'cid'] as const;

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
  const subject = stringClaim(claims.sub);
  const tenantId = stringClaim(claims[mapping.tenantClaim]) ?? fallbackTenant(mapping.tenantFallback, subject);
  const extra: Record<string, unknown> = {};
  if (mapping.passClaims.length > 0) extra.claims = pickClaims(claims, mapping.passClaims);
  if (subject !== undefined) extra.sub = subject;
  if (tenantId !== undefined) extra.tid = tenantId;
  return {
    // Left empty on purpose: AuthInfo reaches every handler's SDK context, and the token must reach none.
    token: '',
    clientId: CLIENT_ID_CLAIMS.map((name) => stringClaim(claims[name])).find((id) => id !== undefined) ?? '',
    scopes: expandScopes(grantedScopes(claims), mapping.scopeHierarchy),
    expiresAt: exp,
    extra,
  };
}

/** `scope` (space-separated, RFC 8693/9068) and `scp` (a list, or a space-separated string) together. */
function grantedScopes(claims: TokenClaims): string[] {
  const scopes: string[] = [];
  for (const value of [claims.scope, claims.scp]) {
    if (typeof value === 'string') scopes.push(...value.split(/\s+/));
    else if (Array.isArray(value)) scopes.push(...value.filter((item): item is string => typeof item === 'string'));
  }
  return scopes.filter((scope) => scope !== '');
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
