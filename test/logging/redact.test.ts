import { describe, expect, it } from 'vitest';
import {
  isSensitiveKey,
  REDACTED,
  Redaction,
  sanitizeForLogging,
  sanitizeRecordForLogging,
} from '../../src/logging/index.js';

const MASKED_KEYS = [
  'password',
  'PASSWORD',
  'passwd',
  'pwd',
  'secret',
  'token',
  'apiKey',
  'API_KEY',
  'api-key',
  'api.key',
  'api key',
  'apikey',
  'X-Api-Key',
  'XApiKey',
  'authorization',
  'Authorization',
  'auth_token',
  'authToken',
  'cookie',
  'Set-Cookie',
  'credential',
  'credentials',
  'privateKey',
  'private_key',
  'PRIVATE-KEY',
  'clientSecret',
  'client_secret',
  'accessKey',
  'AWS_ACCESS_KEY',
  'signature',
  'jwt',
  'bearer',
  'ssn',
  'sessionToken',
  'session_token',
  'accessToken',
  'refresh_token',
  'tokenCount',
  'oauth2Token',
  'dbPassword',
];

const KEPT_KEYS = ['key', 'tenantId', 'monkey', 'requestId', 'sessionId', 'name', 'url', 'author', 'tokenizer', 'api'];

describe('isSensitiveKey', () => {
  it.each(MASKED_KEYS)('masks %s', (key) => {
    expect(isSensitiveKey(key)).toBe(true);
  });

  it.each(KEPT_KEYS)('keeps %s', (key) => {
    expect(isSensitiveKey(key)).toBe(false);
  });
});

describe('sanitizeForLogging', () => {
  it('masks every sensitive variant at any depth, in nested objects and arrays of objects', () => {
    const input = {
      user: { profile: { apiKey: 'k1', name: 'ada' } },
      headers: [{ 'X-Api-Key': 'k2', accept: 'json' }, { Authorization: 'Bearer t' }],
      deep: { a: { b: { c: [{ client_secret: 'cs', tokenCount: 12, tenantId: 't1' }] } } },
      API_KEY: 'k3',
      'api-key': 'k4',
      accessToken: 'at',
      key: 'plain',
      monkey: 'banana',
    };
    expect(sanitizeForLogging(input)).toEqual({
      user: { profile: { apiKey: REDACTED, name: 'ada' } },
      headers: [{ 'X-Api-Key': REDACTED, accept: 'json' }, { Authorization: REDACTED }],
      deep: { a: { b: { c: [{ client_secret: REDACTED, tokenCount: REDACTED, tenantId: 't1' }] } } },
      API_KEY: REDACTED,
      'api-key': REDACTED,
      accessToken: REDACTED,
      key: 'plain',
      monkey: 'banana',
    });
  });

  it('masks a sensitive key whose value is an object, without descending into it', () => {
    expect(sanitizeForLogging({ credentials: { user: 'u', pass: 'p' } })).toEqual({ credentials: REDACTED });
  });

  it('returns primitives and top-level arrays as copies', () => {
    expect(sanitizeForLogging('text')).toBe('text');
    expect(sanitizeForLogging(42)).toBe(42);
    expect(sanitizeForLogging(null)).toBeNull();
    expect(sanitizeForLogging(undefined)).toBeUndefined();
    expect(sanitizeForLogging([{ password: 'p' }, 3])).toEqual([{ password: REDACTED }, 3]);
  });

  it('replaces a cycle with [Circular] without throwing', () => {
    const node: Record<string, unknown> = { name: 'root', children: [] };
    (node.children as unknown[]).push({ parent: node });
    node.self = node;
    expect(sanitizeForLogging(node)).toEqual({
      name: 'root',
      children: [{ parent: '[Circular]' }],
      self: '[Circular]',
    });
  });

  it('copies an object reached twice through siblings instead of calling it circular', () => {
    const shared = { id: 1, token: 't' };
    expect(sanitizeForLogging({ a: shared, b: shared })).toEqual({
      a: { id: 1, token: REDACTED },
      b: { id: 1, token: REDACTED },
    });
  });

  it('turns an Error into { name, message }, dropping its other properties', () => {
    const error = Object.assign(new RangeError('out of range'), { config: { password: 'p' } });
    expect(sanitizeForLogging({ cause: error })).toEqual({ cause: { name: 'RangeError', message: 'out of range' } });
  });

  it('uses the JSON form of objects that define toJSON', () => {
    const when = new Date('2026-01-02T03:04:05.000Z');
    expect(sanitizeForLogging({ when, at: new URL('https://example.test/a') })).toEqual({
      when: '2026-01-02T03:04:05.000Z',
      at: 'https://example.test/a',
    });
  });

  it('never mutates its input and shares no objects with it', () => {
    const input = { nested: { password: 'p', list: [{ token: 't' }] }, plain: 1 };
    const snapshot = structuredClone(input);
    const output = sanitizeForLogging(input) as typeof input;
    expect(input).toEqual(snapshot);
    expect(output.nested).not.toBe(input.nested);
    expect(output.nested.list).not.toBe(input.nested.list);
    expect(output.nested.list[0]).not.toBe(input.nested.list[0]);
  });

  it('keeps a __proto__ key as data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}');
    const output = sanitizeRecordForLogging(input);
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.hasOwn(output, '__proto__')).toBe(true);
    expect(output.ok).toBe(1);
  });
});

describe('Redaction with extra fields (MCP_LOG_REDACT_FIELDS)', () => {
  it('adds fields that match with the same case, separator and word rules, and leaves the defaults alone', () => {
    const redaction = new Redaction(['favourite_colour', 'PIN', '']);
    expect(redaction.isSensitiveKey('favouriteColour')).toBe(true);
    expect(redaction.isSensitiveKey('FAVOURITE-COLOUR')).toBe(true);
    expect(redaction.isSensitiveKey('cardPin')).toBe(true);
    expect(redaction.isSensitiveKey('pinned')).toBe(false);
    expect(redaction.isSensitiveKey('password')).toBe(true);
    expect(redaction.sanitize({ wallet: [{ card_pin: '1234', last4: '9999' }] })).toEqual({
      wallet: [{ card_pin: REDACTED, last4: '9999' }],
    });
    // Nothing is process-global: the default list (and any other app's) is untouched.
    expect(isSensitiveKey('cardPin')).toBe(false);
    expect(new Redaction().isSensitiveKey('favouriteColour')).toBe(false);
  });
});
