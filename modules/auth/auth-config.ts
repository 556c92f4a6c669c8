// The auth module's own settings, read from the environment (MCP_AUTH_MODE and the variables of its mode) and
// validated at once: one KilnBootError names every missing or insecure setting. `authFromEnv` is what `listen()` and
// `http({ auth: authFromEnv() })` use; `none` gives undefined (no authentication).

import { AUTH_MODES, EnvReader, fallbacksOver } from '../../src/host/index.js';
import type { BearerAuthOptions } from './bearer-auth.js';
import { IDENTITY_PRESETS, presetDefaults } from './identity-presets.js';
import { introspectionVerifier } from './introspection-verifier.js';
import { jwksVerifier, sharedSecretVerifier } from './jwt-verifiers.js';
import { parseScopeHierarchy } from './scope-hierarchy.js';
import { secureUrl } from './secure-url.js';
import { type ClaimMapping, DEFAULT_CLAIM_MAPPING, type TenantFallback } from './token-claims.js';

type Env = Readonly<Record<string, string | undefined>>;

/** HMAC-SHA256 keys shorter than its output are guessable offline from any token (RFC 7518 §3.2). */
export const SECRET_KEY_MIN_BYTES = 32;
export const DEFAULT_OAUTH_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;
const TENANT_FALLBACKS = ['none', 'subject', 'fixed'] as const;

/** The bearer-token settings of MCP_AUTH_MODE=jwt or oauth; undefined for none. Throws KilnBootError when invalid. */
export function authFromEnv(env: Env = process.env): BearerAuthOptions | undefined {
  const read = new EnvReader(env);
  const options = readAuth(read);
  read.assertValid();
  return options;
}

/** The default of every auth setting, as the code passes them (read in both modes), for the settings reference. */
export function authFallbacks(): ReadonlyMap<string, unknown> {
  return fallbacksOver(
    AUTH_MODES.map((mode) => ({ MCP_AUTH_MODE: mode })),
    (read) => readAuth(read),
  );
}

function readAuth(read: EnvReader): BearerAuthOptions | undefined {
  const mode = read.oneOf('MCP_AUTH_MODE', AUTH_MODES, 'none');
  if (mode === 'none') return undefined;
  const presetName = read.oneOf('MCP_AUTH_PRESET', ['none', ...IDENTITY_PRESETS], 'none');
  const preset = presetDefaults(presetName === 'none' ? undefined : presetName);
  const claims = readClaimMapping(read, preset.mapping);
  return mode === 'jwt' ? readJwtMode(read, claims) : readOauthMode(read, claims, preset.audienceClaim);
}

function readJwtMode(read: EnvReader, claims: ClaimMapping): BearerAuthOptions {
  const secretKey = read.string('MCP_AUTH_SECRET_KEY');
  const bytes = secretKey === undefined ? 0 : Buffer.byteLength(secretKey, 'utf8');
  if (secretKey === undefined) {
    read.problem('MCP_AUTH_SECRET_KEY is required when MCP_AUTH_MODE=jwt: set it to a secret of at least 32 bytes.');
  } else if (bytes < SECRET_KEY_MIN_BYTES) {
    // A secret: its length is named, never its value.
    read.problem(
      `MCP_AUTH_SECRET_KEY is too short (${bytes} bytes): it must be at least ${SECRET_KEY_MIN_BYTES} bytes of UTF-8. ` +
        'Generate one with `openssl rand -base64 32`.',
    );
  }
  const issuer = read.string('MCP_JWT_EXPECTED_ISSUER');
  const audience = read.string('MCP_JWT_EXPECTED_AUDIENCE');
  const resource = audience !== undefined && isAbsoluteUrl(audience) ? audience : undefined;
  return {
    verifier: sharedSecretVerifier({
      secretKey: secretKey ?? '',
      issuer,
      audience,
      clockToleranceSeconds: claims.clockToleranceSeconds,
    }),
    claims,
    // The issuer is only what `iss` must say (any string): jwt mode has no authorization server to advertise.
    authorizationServers: [],
    ...(resource ? { resource } : {}),
  };
}

function readOauthMode(read: EnvReader, claims: ClaimMapping, audienceClaim: 'aud' | 'client_id'): BearerAuthOptions {
  const issuer = read.string('OAUTH_ISSUER_URL');
  if (issuer === undefined) {
    read.problem("OAUTH_ISSUER_URL is required when MCP_AUTH_MODE=oauth: set it to the authorization server's issuer.");
  } else if (!secureUrl(issuer)) {
    read.problem(`OAUTH_ISSUER_URL=${JSON.stringify(issuer)} is not valid: expected an https URL (http on loopback).`);
  }
  const audience = read.string('OAUTH_AUDIENCE');
  if (audience === undefined) {
    read.problem(
      "OAUTH_AUDIENCE is required when MCP_AUTH_MODE=oauth: set it to this server's canonical URI (RFC 8707), " +
        'such as https://mcp.example.com/mcp; tokens must name it in aud.',
    );
  } else if (!isAbsoluteUrl(audience)) {
    read.problem(`OAUTH_AUDIENCE=${JSON.stringify(audience)} is not valid: expected this server's absolute URL.`);
  }
  const jwksUri = read.string('OAUTH_JWKS_URI');
  if (jwksUri !== undefined && !secureUrl(jwksUri)) {
    read.problem(`OAUTH_JWKS_URI=${JSON.stringify(jwksUri)} is not valid: expected an https URL (http on loopback).`);
  }
  const algorithms = read.list('OAUTH_ALGORITHMS') ?? [...DEFAULT_OAUTH_ALGORITHMS];
  const refused = algorithms.filter((alg) => !(DEFAULT_OAUTH_ALGORITHMS as readonly string[]).includes(alg));
  if (refused.length > 0 || algorithms.length === 0) {
    read.problem(
      `OAUTH_ALGORITHMS names ${refused.length > 0 ? refused.join(', ') : 'nothing'}: in oauth mode only asymmetric ` +
        `algorithms are accepted (${DEFAULT_OAUTH_ALGORITHMS.join(', ')}); never HS* (a shared secret) or none.`,
    );
  }
  const tokenType = read.string('OAUTH_TOKEN_TYPE');
  const introspection = readIntrospection(read, issuer, audience);
  return {
    verifier:
      introspection ??
      jwksVerifier({
        issuer: issuer ?? '',
        audiences: [audience ?? '', ...(read.list('OAUTH_EXTRA_AUDIENCES') ?? [])],
        ...(jwksUri ? { jwksUri } : {}),
        cooldownMs: read.integer('OAUTH_JWKS_COOLDOWN_MS', 30_000, { min: 1000, max: 3_600_000 }),
        timeoutMs: read.integer('OAUTH_JWKS_TIMEOUT_MS', 5_000, { min: 100, max: 60_000 }),
        algorithms,
        ...(tokenType ? { tokenType } : {}),
        audienceClaim,
        clockToleranceSeconds: claims.clockToleranceSeconds,
      }),
    claims,
    authorizationServers: issuer ? [issuer] : [],
    ...(audience ? { resource: audience } : {}),
  };
}

/**
 * Opaque tokens (OAUTH_INTROSPECTION_URL set): checked at the introspection endpoint as a confidential client instead
 * of against a JWKS.
 */
function readIntrospection(read: EnvReader, issuer: string | undefined, audience: string | undefined) {
  const endpoint = read.string('OAUTH_INTROSPECTION_URL');
  if (endpoint === undefined) return undefined;
  if (!secureUrl(endpoint)) {
    read.problem(
      `OAUTH_INTROSPECTION_URL=${JSON.stringify(endpoint)} is not valid: expected an https URL (http on loopback).`,
    );
  }
  const clientId = read.string('OAUTH_INTROSPECTION_CLIENT_ID');
  const clientSecret = read.string('OAUTH_INTROSPECTION_CLIENT_SECRET');
  if (clientId === undefined || clientSecret === undefined) {
    read.problem(
      'OAUTH_INTROSPECTION_CLIENT_ID and OAUTH_INTROSPECTION_CLIENT_SECRET are required with OAUTH_INTROSPECTION_URL: ' +
        'the credentials this server introspects tokens with.',
    );
  }
  const cacheMs = read.integer('OAUTH_INTROSPECTION_CACHE_MS', 30_000, { min: 0, max: 300_000 });
  return introspectionVerifier({
    endpoint,
    clientId: clientId ?? '',
    clientSecret: clientSecret ?? '',
    audiences: [audience ?? '', ...(read.list('OAUTH_EXTRA_AUDIENCES') ?? [])],
    ...(issuer ? { issuer } : {}),
    cacheMs,
    negativeCacheMs: Math.min(cacheMs, 5_000),
    timeoutMs: read.integer('OAUTH_JWKS_TIMEOUT_MS', 5_000, { min: 100, max: 60_000 }),
  });
}

/** The claim mapping: the preset's defaults (if any) over Kiln's, and every explicit setting over both. */
function readClaimMapping(read: EnvReader, preset: Partial<ClaimMapping>): ClaimMapping {
  const base = { ...DEFAULT_CLAIM_MAPPING, ...preset };
  const tenantClaim = read.string('MCP_AUTH_TENANT_CLAIM') ?? base.tenantClaim;
  const fallbackKind = read.oneOf('MCP_AUTH_TENANT_FALLBACK', TENANT_FALLBACKS, 'none');
  const fixedTenant = read.string('MCP_AUTH_FIXED_TENANT');
  let tenantFallback: TenantFallback = { kind: fallbackKind === 'fixed' ? 'none' : fallbackKind };
  if (fallbackKind === 'fixed') {
    if (fixedTenant === undefined) {
      read.problem('MCP_AUTH_FIXED_TENANT is required when MCP_AUTH_TENANT_FALLBACK=fixed: name the tenant to use.');
    } else {
      tenantFallback = { kind: 'fixed', tenantId: fixedTenant };
    }
  }
  const { hierarchy, problems } = parseScopeHierarchy(read.list('MCP_AUTH_SCOPE_HIERARCHY') ?? []);
  for (const problem of problems) read.problem(`MCP_AUTH_SCOPE_HIERARCHY: ${problem}, such as notes:admin>notes:read.`);
  return {
    tenantClaim,
    tenantFallback,
    scopeHierarchy: hierarchy,
    passClaims: read.list('MCP_AUTH_CLAIMS') ?? base.passClaims,
    scopeClaims: read.list('MCP_AUTH_SCOPE_CLAIMS') ?? base.scopeClaims,
    clientIdClaims: read.list('MCP_AUTH_CLIENT_ID_CLAIMS') ?? base.clientIdClaims,
    requiredClaims: base.requiredClaims,
    clockToleranceSeconds: read.integer(
      'MCP_AUTH_CLOCK_TOLERANCE_SECONDS',
      DEFAULT_CLAIM_MAPPING.clockToleranceSeconds,
      { min: 0, max: 300 },
    ),
  };
}

function isAbsoluteUrl(value: string): boolean {
  try {
    return ['https:', 'http:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
