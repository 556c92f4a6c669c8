// The metadata keys decorators write and the app compiler reads. Decorators only record; nothing here runs at request time.
import 'reflect-metadata';
export const TOOL_METADATA = Symbol.for('kiln:tool');
export const ERRORS_METADATA = Symbol.for('kiln:errors');
export const ENRICHMENT_METADATA = Symbol.for('kiln:enrichment');
export const INPUT_ALIAS_METADATA = Symbol.for('kiln:input-alias');
export const DISABLED_METADATA = Symbol.for('kiln:disabled');
export const CONSENT_METADATA = Symbol.for('kiln:consent');
export const SCOPES_METADATA = Symbol.for('kiln:scopes');
export const RESOURCE_METADATA = Symbol.for('kiln:resource');
export const PROMPT_METADATA = Symbol.for('kiln:prompt');
export const MODULE_METADATA = Symbol.for('kiln:module');
export const INJECTABLE_METADATA = Symbol.for('kiln:injectable');
export const INJECT_METADATA = Symbol.for('kiln:inject');
export const GUARDS_METADATA = Symbol.for('kiln:guards');
export const INTERCEPTORS_METADATA = Symbol.for('kiln:interceptors');
export const FILTERS_METADATA = Symbol.for('kiln:filters');
export const RATE_LIMITS_METADATA = Symbol.for('kiln:rate-limits');
export const QUOTAS_METADATA = Symbol.for('kiln:quotas');
export const CACHE_METADATA = Symbol.for('kiln:cache');

type Constructor = abstract new (...args: never[]) => unknown;

export function defineMetadata(key: symbol, value: unknown, target: Constructor): void {
  Reflect.defineMetadata(key, value, target);
}

/** Reads metadata recorded on the class itself (never inherited from a base class). */
export function readMetadata<T>(key: symbol, target: Constructor): T | undefined {
  return Reflect.getOwnMetadata(key, target) as T | undefined;
}

/**
 * Adds `items` before what the class already lists under `key`. Stacked decorators apply bottom-up, so prepending
 * keeps the order they are written in, top to bottom.
 */
export function prependMetadata(key: symbol, items: readonly unknown[], target: Constructor): void {
  Reflect.defineMetadata(key, [...items, ...(readMetadata<readonly unknown[]>(key, target) ?? [])], target);
}
