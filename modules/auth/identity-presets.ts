// MCP_AUTH_PRESET: how the access tokens of common identity providers name the tenant, the scopes, the client and the
// subject, and what each needs checked, as data over the claim mapping. Every explicit setting still wins: a preset
// only changes the defaults (MCP_AUTH_TENANT_CLAIM, MCP_AUTH_CLAIMS, ...).
import type { ClaimMapping } from './token-claims.js';

export const IDENTITY_PRESETS = ['entra', 'auth0', 'okta', 'keycloak', 'cognito', 'google'] as const;
export type IdentityPreset = (typeof IDENTITY_PRESETS)[number];

export interface PresetDefaults {
  readonly mapping: Partial<ClaimMapping>;
  /** Which claim names the audience the server checks: `aud`, or `client_id` (Cognito access tokens carry no `aud`). */
  readonly audienceClaim: 'aud' | 'client_id';
}

const PRESETS: Readonly<Record<IdentityPreset, PresetDefaults>> = {
  // Entra ID: tenant `tid` (always present in a work or school account's token); delegated scopes in `scp`,
  // application permissions in `roles`; the client `azp` (v2) or `appid` (v1); `oid` the stable user id.
  entra: {
    mapping: {
      tenantClaim: 'tid',
      scopeClaims: ['scp', 'roles'],
      clientIdClaims: ['azp', 'appid'],
      requiredClaims: { tid: ['*'] },
      passClaims: ['oid'],
    },
    audienceClaim: 'aud',
  },
  // Auth0: the organization `org_id` is the tenant; scopes in `scope`, RBAC permissions in `permissions`.
  auth0: {
    mapping: {
      tenantClaim: 'org_id',
      scopeClaims: ['scope', 'permissions'],
      clientIdClaims: ['azp', 'client_id'],
    },
    audienceClaim: 'aud',
  },
  // Okta: scopes in `scp` (a list), the client `cid`, the user `uid`; no tenant claim of its own.
  okta: {
    mapping: { scopeClaims: ['scp'], clientIdClaims: ['cid', 'client_id'], passClaims: ['uid'] },
    audienceClaim: 'aud',
  },
  // Keycloak: realm roles and each client's roles (as `client:role`) count as scopes, besides `scope`.
  keycloak: {
    mapping: {
      scopeClaims: ['scope', 'realm_access.roles', 'resource_access.*.roles'],
      clientIdClaims: ['azp', 'client_id'],
      passClaims: ['preferred_username'],
    },
    audienceClaim: 'aud',
  },
  // Cognito: an access token says `token_use: access` (an ID token must not pass) and names its app client in
  // `client_id`, with no `aud`; groups count as scopes.
  cognito: {
    mapping: {
      scopeClaims: ['scope', 'cognito:groups'],
      clientIdClaims: ['client_id'],
      requiredClaims: { token_use: ['access'] },
      passClaims: ['username'],
    },
    audienceClaim: 'client_id',
  },
  // Google (JWTs it issues for Workspace): the hosted domain `hd` is the tenant, the client `azp`.
  google: {
    mapping: { tenantClaim: 'hd', clientIdClaims: ['azp'], passClaims: ['email'] },
    audienceClaim: 'aud',
  },
};

export function presetDefaults(preset: IdentityPreset | undefined): PresetDefaults {
  return preset ? PRESETS[preset] : { mapping: {}, audienceClaim: 'aud' };
}
