// requestPrincipal: the client id, `sub` and `tid` claims of the AuthInfo a transport attached, with the empty and
// 'default' values an unauthenticated request runs as; authContextOf turns it into ctx.auth.
import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { authContextOf, DEFAULT_TENANT, requestPrincipal } from '../../src/protocol/principal.js';

const token = (fields: Partial<AuthInfo> = {}): AuthInfo => ({
  token: 'opaque',
  clientId: 'client-a',
  scopes: ['notes:read'],
  ...fields,
});

describe('requestPrincipal', () => {
  it('reads clientId, the sub claim and the tid claim', () => {
    const authInfo = token({ extra: { sub: 'user-1', tid: 'tenant-9' } });
    expect(requestPrincipal({ http: { authInfo } })).toEqual({
      clientId: 'client-a',
      subject: 'user-1',
      tenantId: 'tenant-9',
      authInfo,
    });
  });

  it('runs an unauthenticated request as nobody in the default tenant', () => {
    const nobody = { clientId: '', subject: '', tenantId: DEFAULT_TENANT, authInfo: undefined };
    expect(requestPrincipal({})).toEqual(nobody);
    expect(requestPrincipal({ http: {} })).toEqual(nobody);
  });

  it('puts a token without a tid claim in the default tenant, with an empty subject when sub is missing', () => {
    expect(requestPrincipal({ http: { authInfo: token() } })).toMatchObject({
      clientId: 'client-a',
      subject: '',
      tenantId: 'default',
    });
  });

  it('ignores claims that are not strings, or empty', () => {
    const authInfo = token({ extra: { sub: 42, tid: '' } });
    expect(requestPrincipal({ http: { authInfo } })).toMatchObject({ subject: '', tenantId: 'default' });
    expect(requestPrincipal({ http: { authInfo: token({ extra: { tid: ['t1'] } }) } }).tenantId).toBe('default');
  });
});

describe('authContextOf', () => {
  it('is ctx.auth for an authenticated request: client, subject, scopes and tenant', () => {
    const principal = requestPrincipal({ http: { authInfo: token({ extra: { sub: 'user-1', tid: 't1' } }) } });
    expect(authContextOf(principal)).toEqual({
      clientId: 'client-a',
      subject: 'user-1',
      scopes: ['notes:read'],
      tenantId: 't1',
    });
  });

  it('leaves subject out when the token has none, and is undefined without a token', () => {
    expect(authContextOf(requestPrincipal({ http: { authInfo: token() } }))).toEqual({
      clientId: 'client-a',
      scopes: ['notes:read'],
      tenantId: 'default',
    });
    expect(authContextOf(requestPrincipal({}))).toBeUndefined();
  });
});
