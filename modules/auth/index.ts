// modules/auth (`mcp-kiln/auth`): bearer tokens for the HTTP host. jose verifiers for MCP_AUTH_MODE=jwt (HS256,
// shared secret) and oauth (an external authorization server's JWKS), a pluggable verifier for opaque tokens, the
// mapping of claims to ctx.auth and ctx.tenantId, and the environment reader that configures it all.

export { authFromEnv, DEFAULT_OAUTH_ALGORITHMS, SECRET_KEY_MIN_BYTES } from './auth-config.js';
export { AuthUnavailableError, InvalidTokenError } from './auth-errors.js';
export { BearerAuth, type BearerAuthOptions } from './bearer-auth.js';
export { IDENTITY_PRESETS, type IdentityPreset } from './identity-presets.js';
export { type IntrospectionOptions, introspectionVerifier } from './introspection-verifier.js';
export {
  type JwksOptions,
  jwksVerifier,
  type SharedSecretOptions,
  sharedSecretVerifier,
  type TokenVerifier,
} from './jwt-verifiers.js';
export { expandScopes, parseScopeHierarchy, type ScopeHierarchy } from './scope-hierarchy.js';
export {
  authInfoFromClaims,
  type ClaimMapping,
  DEFAULT_CLAIM_MAPPING,
  type TenantFallback,
  type TokenClaims,
} from './token-claims.js';
