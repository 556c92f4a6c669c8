// Converting `ctx.state` values to and from their stored JSON text. Serialization follows `JSON.stringify` exactly,
// except that what it would throw on or silently turn into nothing is rejected up front with the offending path.
import { serializationError } from '../errors/factories.js';
import { McpError } from '../errors/mcp-error.js';
import { type ClientSubject, corruptEntryError } from './storage-errors.js';

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function notSerializable(path: string, problem: string): McpError {
  return serializationError(`State value is not JSON-serializable: ${path} ${problem}`, {
    reason: 'state_not_serializable',
    path,
  });
}

/** Values `JSON.stringify` drops from objects and turns into `null` in arrays. */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function describeSkipped(value: unknown): string {
  if (value === undefined) return 'undefined';
  return typeof value === 'function' ? 'a function' : 'a symbol';
}

/**
 * Builds the plain JSON form of `input` (applying `toJSON` and unboxing as `JSON.stringify` does) while tracking
 * the path, so an error can say where the problem is. `ancestors` holds only the objects on the current path:
 * the same object reached twice through different branches is fine, only a cycle is an error.
 */
function toJson(input: unknown, key: string | number, path: string, ancestors: Set<object>): JsonValue | undefined {
  let value = input;
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  if ((typeof value === 'object' || typeof value === 'bigint') && value !== null && typeof toJSON === 'function') {
    value = toJSON.call(value, String(key));
  }
  if (typeof value === 'bigint' || value instanceof BigInt) throw notSerializable(path, 'is a bigint');
  if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (isSkipped(value)) return undefined;

  const object = value as object;
  if (ancestors.has(object)) throw notSerializable(path, 'is a circular reference');
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      return Array.from(object, (item, index) => toJson(item, index, childPath(path, index), ancestors) ?? null);
    }
    const result: { [key: string]: JsonValue } = {};
    for (const [name, child] of Object.entries(object)) {
      const converted = toJson(child, name, childPath(path, name), ancestors);
      if (converted !== undefined) result[name] = converted;
    }
    return result;
  } finally {
    ancestors.delete(object);
  }
}

/** The stored text for a state value; throws `McpError(SerializationError)` before anything could be written. */
export function serializeStateValue(value: unknown): string {
  if (isSkipped(value)) throw notSerializable('value', `is ${describeSkipped(value)}`);
  let json: JsonValue | undefined;
  try {
    json = toJson(value, '', 'value', new Set());
  } catch (error) {
    if (error instanceof McpError) throw error;
    const detail = error instanceof RangeError ? 'is nested too deeply' : `could not be converted (${String(error)})`;
    throw serializationError(`State value is not JSON-serializable: value ${detail}`, undefined, { cause: error });
  }
  if (json === undefined) throw notSerializable('value', 'has a toJSON() that returned nothing');
  return JSON.stringify(json);
}

/**
 * The value a stored text stands for. A text that is not JSON was not written through `ctx.state`: the store was
 * tampered with or damaged, which is a `storage_corrupt` StorageError naming the key, like a damaged file.
 */
export function parseStateValue(text: string, subject: ClientSubject): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw corruptEntryError(subject, error);
  }
}
