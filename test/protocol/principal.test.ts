// requestPrincipal: the client id, `sub` and tenant (`tid`) a verifier wrote into the AuthInfo a transport attached.
// An unauthenticated request runs as nobody in the 'default' tenant; an authenticated one whose token names no tenant
// runs in none, so ctx.state refuses it (fail closed) instead of sharing 'default' with every other such caller.
import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TENANT, principalOf, requestPrincipal } from '../../src/protocol/principal.js';
import { principalBinding } from '../../src/protocol/request-state-sealing.js';

const token = (fields: Partial<AuthInfo> = {}): AuthInfo => ({
  token: '',
  clientId: 'client-a',
  scopes: ['notes:read'],
  ...fields,
});

describe('requestPrincipal', () => {
  it('reads clientId, the sub claim and the tenant, and builds ctx.auth from them', () => {
    const authInfo = token({
      expiresAt: 1_900_000_000,
      extra: { sub: 'user-1', tid: 'tenant-9', claims: { org: 'x' } },
    });
    expect(requestPrincipal({ http: { authInfo } })).toEqual({
      clientId: 'client-a',
      subject: 'user-1',
      tenantId: 'tenant-9',
      auth: {
        clientId: 'client-a',
        subject: 'user-1',
        scopes: ['notes:read'],
        tenantId: 'tenant-9',
        expiresAt: 1_900_000_000,
        claims: { org: 'x' },
      },
    });
  });

  it('runs an unauthenticated request as nobody in the default tenant, with no ctx.auth', () => {
    const nobody = { clientId: '', subject: '', tenantId: DEFAULT_TENANT, auth: undefined };
    expect(requestPrincipal({})).toEqual(nobody);
    expect(requestPrincipal({ http: {} })).toEqual(nobody);
  });

  it('gives a token without a tenant no tenant at all (fail closed), and an empty subject when sub is missing', () => {
    expect(requestPrincipal({ http: { authInfo: token() } })).toEqual({
      clientId: 'client-a',
      subject: '',
      tenantId: undefined,
      auth: { clientId: 'client-a', scopes: ['notes:read'] },
    });
  });

  it('ignores claims that are not strings, or empty', () => {
    const authInfo = token({ extra: { sub: 42, tid: '' } });
    expect(requestPrincipal({ http: { authInfo } })).toMatchObject({ subject: '', tenantId: undefined });
    expect(principalOf(token({ extra: { tid: ['t1'] } })).tenantId).toBeUndefined();
    expect(principalOf(token({ extra: { claims: ['not', 'a', 'record'] } })).auth).not.toHaveProperty('claims');
  });
});

describe('principalBinding', () => {
  it('tells apart a token without a tenant, one whose tenant is "default", and no token', () => {
    const bindings = new Set([
      principalBinding({ http: { authInfo: token() } }),
      principalBinding({ http: { authInfo: token({ extra: { tid: 'default' } }) } }),
      principalBinding({}),
    ]);
    expect(bindings.size).toBe(3);
  });
});
