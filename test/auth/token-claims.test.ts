// Verified claims → the AuthInfo handlers see: client id from client_id, azp or cid; scopes from scope and scp, with
// the hierarchy applied; the tenant from its claim or the configured fallback; exp required; the token never kept.
// Also principalKey, the binding string of a principal, and a verifier of your own (opaque tokens).
import type { AuthInfo } from '@modelcontextprotocol/server';
import {
  AuthUnavailableError,
  authInfoFromClaims,
  BearerAuth,
  type ClaimMapping,
  DEFAULT_CLAIM_MAPPING,
  expandScopes,
  InvalidTokenError,
  parseScopeHierarchy,
} from 'mcp-kiln/auth';
import { principalKey } from 'mcp-kiln/host';
import { describe, expect, it } from 'vitest';

const NOW = 1_800_000_000_000;
const exp = NOW / 1000 + 600;
const mapping = (overrides: Partial<ClaimMapping> = {}): ClaimMapping => ({ ...DEFAULT_CLAIM_MAPPING, ...overrides });
const map = (claims: Record<string, unknown>, overrides: Partial<ClaimMapping> = {}) =>
  authInfoFromClaims({ exp, ...claims }, mapping(overrides), NOW);

describe('authInfoFromClaims', () => {
  it('maps client, subject, scopes, tenant and expiry, and carries no token', () => {
    expect(map({ client_id: 'c', sub: 'alice', scope: 'a b', scp: ['b', 'c'], tid: 'acme' })).toEqual({
      token: '',
      clientId: 'c',
      scopes: ['a', 'b', 'c'],
      expiresAt: exp,
      extra: { sub: 'alice', tid: 'acme' },
    });
  });

  it('takes the client id from client_id, then azp, then cid; a space-separated scp is split', () => {
    expect(map({ azp: 'from-azp', cid: 'from-cid' }).clientId).toBe('from-azp');
    expect(map({ cid: 'from-cid' }).clientId).toBe('from-cid');
    expect(map({}).clientId).toBe('');
    expect(map({ scp: 'x y' }).scopes).toEqual(['x', 'y']);
  });

  it('fails closed without a tenant claim, unless the fallback is the subject or a fixed tenant', () => {
    expect(map({ sub: 'alice' }).extra).toEqual({ sub: 'alice' });
    expect(map({ sub: 'alice' }, { tenantFallback: { kind: 'subject' } }).extra?.tid).toBe('alice');
    expect(map({ sub: 'alice' }, { tenantFallback: { kind: 'fixed', tenantId: 'desk' } }).extra?.tid).toBe('desk');
    expect(map({ org: 'o1', tid: 'ignored' }, { tenantClaim: 'org' }).extra?.tid).toBe('o1');
    expect(map({ tid: '' }).extra).not.toHaveProperty('tid');
  });

  it('passes on only the chosen claims', () => {
    expect(
      map({ email: 'a@x', groups: ['g'], secret: 's' }, { passClaims: ['email', 'groups', 'absent'] }).extra,
    ).toEqual({ claims: { email: 'a@x', groups: ['g'] } });
  });

  it('requires exp, and applies the clock tolerance to exp and nbf', () => {
    expect(() => authInfoFromClaims({}, mapping(), NOW)).toThrow(new InvalidTokenError('The token has no exp claim.'));
    const seconds = NOW / 1000;
    expect(() => authInfoFromClaims({ exp: seconds - 10 }, mapping(), NOW)).not.toThrow();
    expect(() => authInfoFromClaims({ exp: seconds - 31 }, mapping(), NOW)).toThrow(/expired/);
    expect(() => authInfoFromClaims({ exp: seconds - 10 }, mapping({ clockToleranceSeconds: 0 }), NOW)).toThrow();
    expect(() => authInfoFromClaims({ exp, nbf: seconds + 60 }, mapping(), NOW)).toThrow(/not valid yet/);
  });
});

describe('scope hierarchies', () => {
  it('expands transitively, each scope once, and survives a cycle', () => {
    const { hierarchy, problems } = parseScopeHierarchy(['admin>write', 'write>read', 'read>admin', 'admin>audit']);
    expect(problems).toEqual([]);
    expect(expandScopes(['admin'], hierarchy)).toEqual(['admin', 'write', 'read', 'audit']);
    expect(expandScopes(['read', 'other'], hierarchy)).toEqual(['read', 'admin', 'write', 'audit', 'other']);
  });

  it('reports what is not a parent>child pair', () => {
    expect(parseScopeHierarchy(['a>b>c', '>b', 'a b>c']).problems).toHaveLength(3);
  });
});

describe('principalKey', () => {
  const info = (extra: Record<string, unknown>, clientId = 'c'): AuthInfo => ({
    token: '',
    clientId,
    scopes: [],
    extra,
  });

  it('is the same for the same client, subject and tenant, and differs when any of them does', () => {
    const key = principalKey(info({ sub: 'alice', tid: 'acme' }));
    expect(principalKey(info({ sub: 'alice', tid: 'acme' }))).toBe(key);
    const others = [
      info({ sub: 'alice', tid: 'acme' }, 'other-client'),
      info({ sub: 'bob', tid: 'acme' }),
      info({ sub: 'alice', tid: 'globex' }),
      info({ sub: 'alice' }),
    ].map(principalKey);
    expect(new Set([key, ...others]).size).toBe(5);
  });

  it('is undefined without a token: nothing to bind', () => {
    expect(principalKey(undefined)).toBeUndefined();
  });
});

describe('a verifier of your own', () => {
  // Opaque tokens as the MCP conformance suite's scope scenario uses them.
  const opaque = {
    verify: async (token: string) => {
      if (token === 'down') throw new Error('introspection endpoint timed out');
      if (!token.startsWith('mcp-conformance-scope-')) throw new InvalidTokenError('Unknown token.');
      const full = token.endsWith('-full');
      return {
        sub: 'conformance',
        client_id: 'suite',
        scope: full ? 'read write' : 'read',
        exp: Date.now() / 1000 + 60,
      };
    },
  };

  it('turns its claims into AuthInfo with the same rules', async () => {
    const auth = new BearerAuth({ verifier: opaque, claims: { tenantFallback: { kind: 'fixed', tenantId: 'suite' } } });
    expect(await auth.authenticate('mcp-conformance-scope-full')).toMatchObject({
      clientId: 'suite',
      scopes: ['read', 'write'],
      extra: { sub: 'conformance', tid: 'suite' },
    });
    await expect(auth.authenticate('nonsense')).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('reports its own failures as "cannot verify" (503), never as a bad token', async () => {
    await expect(new BearerAuth({ verifier: opaque }).authenticate('down')).rejects.toBeInstanceOf(
      AuthUnavailableError,
    );
    const noExp = new BearerAuth({ verifier: { verify: async () => ({ sub: 'x' }) } });
    await expect(noExp.authenticate('t')).rejects.toThrow(new InvalidTokenError('The token has no exp claim.'));
  });
});
