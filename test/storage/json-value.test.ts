// The JSON conversion of state values on its own: stored text, error paths and corrupt text.
import { describe, expect, it } from 'vitest';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { McpError } from '../../src/errors/mcp-error.js';
import { parseStateValue, serializeStateValue } from '../../src/storage/json-value.js';

function serializationFailure(value: unknown): McpError {
  try {
    serializeStateValue(value);
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error('expected serializeStateValue to throw');
}

describe('serializeStateValue', () => {
  it('produces the same text as JSON.stringify for serializable values', () => {
    const value = { a: [1, 'two', null, true], b: { c: new Date(0) }, d: undefined, e: Number.NaN };
    expect(serializeStateValue(value)).toBe(JSON.stringify(value));
    expect(serializeStateValue('text')).toBe('"text"');
    expect(serializeStateValue(null)).toBe('null');
  });

  it('reports the path of a nested problem and carries it in the error data', () => {
    const error = serializationFailure({ list: [{ ok: 1 }, { bad: 1n }] });
    expect(error.code).toBe(JsonRpcErrorCode.SerializationError);
    expect(error.message).toBe('State value is not JSON-serializable: value.list[1].bad is a bigint');
    expect(error.data).toMatchObject({ path: 'value.list[1].bad' });
  });

  it('reports a boxed bigint and a toJSON that yields a bigint', () => {
    expect(serializationFailure({ boxed: Object(1n) }).message).toMatch(/value\.boxed is a bigint/);
    expect(serializationFailure({ custom: { toJSON: () => 2n } }).message).toMatch(/value\.custom is a bigint/);
  });

  it('rejects a top-level toJSON that yields nothing', () => {
    expect(serializationFailure({ toJSON: () => undefined }).message).toMatch(/toJSON\(\) that returned nothing/);
  });

  it('turns a throwing getter into a SerializationError', () => {
    const value = {
      get broken(): never {
        throw new Error('boom');
      },
    };
    const error = serializationFailure(value);
    expect(error.code).toBe(JsonRpcErrorCode.SerializationError);
    expect(error.message).toMatch(/boom/);
  });
});

describe('parseStateValue', () => {
  it('parses stored JSON text', () => {
    expect(parseStateValue('{"a":[1,2]}', { operation: 'get', key: 'k' })).toEqual({ a: [1, 2] });
  });

  it('throws a storage_corrupt StorageError naming the key for text that is not JSON', () => {
    expect(() => parseStateValue('{oops', { operation: 'get', key: 'item/1' })).toThrow(
      expect.objectContaining({
        code: JsonRpcErrorCode.StorageError,
        message: expect.stringContaining('"item/1"'),
        data: expect.objectContaining({ reason: 'storage_corrupt', key: 'item/1', operation: 'get' }),
      }) as unknown as Error,
    );
  });
});
