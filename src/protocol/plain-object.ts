// The one test src/protocol and src/transports make of a parsed JSON value before reading its keys.
export type PlainObject = Record<string, unknown>;

/** An object that is neither null nor an array: what a JSON-RPC message, its params or a `_meta` must be. */
export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
