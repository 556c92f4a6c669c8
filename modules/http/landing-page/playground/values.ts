// Small helpers for the JSON the page reads (schemas, results, notifications) and the errors it shows.

export type JsonObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as a person reads it: strings as they are, anything else as JSON. */
export const show = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** What went wrong, for a status line or a field's problem. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A stopped fetch, stream read or input round (AbortController.abort(), or the page's own DOMException). */
export const isAbort = (error: unknown): boolean => isObject(error) && error.name === 'AbortError';
