// The app's requestState sealing on its own: what a seal looks like, what verifies, and the reason each rejection
// carries (the SDK turns any of them into -32602 invalid_request_state; the reason only reaches onerror).
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createRequestStateSealing, principalBinding } from '../../src/protocol/request-state-sealing.js';
import { createTestingLogger } from '../../src/testing/testing-logger.js';

const KEY = 'sealing-unit-test-key-0123456789abcdef';

/** The part of an SDK request context sealing reads: who the request runs as. */
function asPrincipal(clientId?: string, extra?: Record<string, unknown>): ServerContext {
  const authInfo: AuthInfo | undefined =
    clientId === undefined ? undefined : { token: 't', clientId, scopes: [], ...(extra ? { extra } : {}) };
  return { http: authInfo ? { authInfo } : undefined } as ServerContext;
}

function sealing(secret = KEY, ttlSeconds = 900) {
  const built = createRequestStateSealing({ secret, ttlSeconds }, createTestingLogger());
  if (!built) throw new Error('expected sealing with a key');
  return built;
}

describe('createRequestStateSealing', () => {
  it('is off without a key', () => {
    expect(createRequestStateSealing({ secret: undefined, ttlSeconds: 900 }, createTestingLogger())).toBeUndefined();
  });

  it('seals into the v1 envelope and verifies back to the original string', async () => {
    const alice = asPrincipal('alice', { sub: 'u1', tid: 't1' });
    const sealed = await sealing().seal('job-42', alice);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('job-42');
    await expect(sealing().verify(sealed, alice)).resolves.toBe('job-42');
  });

  it('verifies an unauthenticated round for another unauthenticated request (stdio, HTTP without auth)', async () => {
    const sealed = await sealing().seal('s', asPrincipal());
    await expect(sealing().verify(sealed, asPrincipal())).resolves.toBe('s');
  });

  it.each([
    ['another client', asPrincipal('bob', { sub: 'u1', tid: 't1' })],
    ['another subject', asPrincipal('alice', { sub: 'u2', tid: 't1' })],
    ['another tenant', asPrincipal('alice', { sub: 'u1', tid: 't2' })],
    ['no principal at all', asPrincipal()],
  ])('rejects a state replayed by %s with reason bind', async (_who, other) => {
    const sealed = await sealing().seal('s', asPrincipal('alice', { sub: 'u1', tid: 't1' }));
    await expect(sealing().verify(sealed, other)).rejects.toThrow('bind');
  });

  it('rejects an altered state (mac), garbage (malformed) and a state sealed with another key (mac)', async () => {
    const who = asPrincipal('alice');
    const sealed = await sealing().seal('s', who);
    // An altered body character, not the MAC's last one: that carries padding bits a decoder may ignore.
    const altered = `${sealed.slice(0, 5)}${sealed[5] === 'x' ? 'y' : 'x'}${sealed.slice(6)}`;
    await expect(sealing().verify(altered, who)).rejects.toThrow('mac');
    await expect(sealing().verify('not-a-sealed-state', who)).rejects.toThrow('malformed');
    const foreign = await sealing('another-key-that-is-long-enough-000000').seal('s', who);
    await expect(sealing().verify(foreign, who)).rejects.toThrow('mac');
  });

  it('rejects a state past its lifetime with reason expired', async () => {
    const who = asPrincipal('alice');
    const shortLived = sealing(KEY, 1);
    const sealed = await shortLived.seal('s', who);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await expect(shortLived.verify(sealed, who)).rejects.toThrow('expired');
  });
});

describe('principalBinding', () => {
  it('never lets a separator inside one field impersonate another split of the fields', () => {
    const left = principalBinding(asPrincipal('a:b', { sub: 'c' }));
    const right = principalBinding(asPrincipal('a', { sub: 'b:c' }));
    expect(left).not.toBe(right);
    expect(principalBinding(asPrincipal())).toBe('["","","default"]');
  });
});
