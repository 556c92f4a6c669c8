// The built-ins the runtime loads on first use: the module Node itself hands out, once.
import * as crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nodeCrypto } from '../../src/platform/lazy-builtins.js';

describe('nodeCrypto', () => {
  it('is node:crypto, the same object on every call', () => {
    expect(nodeCrypto().createHash).toBe(crypto.createHash);
    expect(nodeCrypto()).toBe(nodeCrypto());
    expect(nodeCrypto().randomUUID()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
