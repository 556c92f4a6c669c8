// `ctx.state`: the tenant-scoped key-value API handlers use. It enforces the key rules, the JSON round trip and
// the cursor contract on top of any StorageProvider, so every backend behaves the same to a handler.
import type { ZodType } from 'zod';
import { invalidRequest, storageError, validationError } from '../errors/factories.js';
import { McpError } from '../errors/mcp-error.js';
import { assertTtlSeconds } from './entry-expiry.js';
import { parseStateValue, serializeStateValue } from './json-value.js';
import { decodeListCursor, encodeListCursor } from './list-cursor.js';
import type { StorageLogger, StorageOperation } from './storage-errors.js';
import { assertStateKey, assertStatePrefix } from './storage-keys.js';
import type { StorageProvider, StorageSetOptions } from './storage-provider.js';

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 1000;

export interface StateSetOptions {
  /** Seconds until the value expires. */
  ttl?: number;
}

export interface StateListOptions {
  cursor?: string;
  limit?: number;
}

export interface StateListPage {
  items: Array<{ key: string; value: unknown }>;
  /** Opaque base64url; omitted on the last page. */
  cursor?: string;
}

export interface ContextState {
  get<T = unknown>(key: string): Promise<T | null>;
  get<T>(key: string, schema: ZodType<T>): Promise<T | null>;
  set(key: string, value: unknown, opts?: StateSetOptions): Promise<void>;
  /**
   * Stores the value only when the key holds none (an expired one counts as none); true when this call stored it.
   * Of concurrent calls for one key, on any instance sharing the backend, exactly one gets true.
   */
  setIfAbsent(key: string, value: unknown, opts?: StateSetOptions): Promise<boolean>;
  delete(key: string): Promise<void>;
  deleteMany(keys: string[]): Promise<number>;
  getMany<T = unknown>(keys: string[]): Promise<Map<string, T>>;
  setMany(entries: Map<string, unknown>, opts?: StateSetOptions): Promise<void>;
  list(prefix?: string, opts?: StateListOptions): Promise<StateListPage>;
  /** Atomic read-and-delete: of concurrent takes of one key, exactly one receives the value. */
  take<T = unknown>(key: string): Promise<T | null>;
  /** As `take`; the value is consumed even when it fails the schema, since checking first would not be atomic. */
  take<T>(key: string, schema: ZodType<T>): Promise<T | null>;
}

function providerOptions(opts: StateSetOptions | undefined): StorageSetOptions | undefined {
  if (opts?.ttl === undefined) return undefined;
  // Checked here too, before serializing, so a bad TTL fails identically whatever the provider does with it.
  assertTtlSeconds(opts.ttl);
  return { ttlSeconds: opts.ttl };
}

function assertKeys(keys: unknown): asserts keys is string[] {
  if (!Array.isArray(keys)) {
    throw validationError('Invalid state keys: expected an array of keys', { reason: 'invalid_state_key' });
  }
  for (const key of keys) assertStateKey(key);
}

function listLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_LIST_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw validationError(`Invalid list limit ${String(limit)}: use an integer from 1 to ${MAX_LIST_LIMIT}`, {
      reason: 'invalid_list_limit',
    });
  }
  return limit;
}

function readValue<T>(operation: StorageOperation, key: string, text: string, schema: ZodType<T> | undefined): T {
  const value = parseStateValue(text, { operation, key });
  if (!schema) return value as T;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
      .join('; ');
    throw validationError(`State value at key "${key}" does not match the schema: ${issues}`, {
      reason: 'state_schema_mismatch',
      key,
    });
  }
  return parsed.data;
}

class TenantState implements ContextState {
  constructor(
    private readonly provider: StorageProvider,
    private readonly tenantId: string,
    private readonly logger: StorageLogger | undefined,
  ) {}

  async get<T>(key: string, schema?: ZodType<T>): Promise<T | null> {
    assertStateKey(key);
    const text = await this.provider.get(this.tenantId, key);
    return text === null ? null : readValue('get', key, text, schema);
  }

  async set(key: string, value: unknown, opts?: StateSetOptions): Promise<void> {
    assertStateKey(key);
    const options = providerOptions(opts);
    await this.provider.set(this.tenantId, key, serializeStateValue(value), options);
  }

  async setIfAbsent(key: string, value: unknown, opts?: StateSetOptions): Promise<boolean> {
    assertStateKey(key);
    const options = providerOptions(opts);
    const text = serializeStateValue(value);
    if (!this.provider.setIfAbsent) {
      throw storageError('The configured storage provider cannot store a key only when it is absent (setIfAbsent)', {
        reason: 'storage_failed',
        recovery: { hint: 'Use a storage provider that implements setIfAbsent (every built-in one does).' },
      });
    }
    return this.provider.setIfAbsent(this.tenantId, key, text, options);
  }

  async delete(key: string): Promise<void> {
    assertStateKey(key);
    await this.provider.delete(this.tenantId, key);
  }

  async deleteMany(keys: string[]): Promise<number> {
    assertKeys(keys);
    return keys.length === 0 ? 0 : this.provider.deleteMany(this.tenantId, keys);
  }

  async getMany<T>(keys: string[]): Promise<Map<string, T>> {
    assertKeys(keys);
    const texts = keys.length === 0 ? new Map<string, string>() : await this.provider.getMany(this.tenantId, keys);
    const values = new Map<string, T>();
    for (const [key, text] of texts) values.set(key, readValue<T>('getMany', key, text, undefined));
    return values;
  }

  async setMany(entries: Map<string, unknown>, opts?: StateSetOptions): Promise<void> {
    if (!(entries instanceof Map)) {
      throw validationError('Invalid setMany entries: expected a Map of key to value', { reason: 'invalid_entries' });
    }
    // Every key and value is checked before the provider sees any, so one bad entry leaves the store untouched.
    const options = providerOptions(opts);
    const texts = new Map<string, string>();
    for (const [key, value] of entries) {
      assertStateKey(key);
      texts.set(key, serializeStateValue(value));
    }
    if (texts.size > 0) await this.provider.setMany(this.tenantId, texts, options);
  }

  async list(prefix = '', opts: StateListOptions = {}): Promise<StateListPage> {
    assertStatePrefix(prefix);
    const limit = listLimit(opts.limit);
    const after = opts.cursor === undefined ? undefined : decodeListCursor(opts.cursor, this.tenantId, prefix);
    const page = await this.provider.list(this.tenantId, prefix, { limit, ...(after === undefined ? {} : { after }) });
    const items = page.items.flatMap(({ key, value }) => this.listedValue(key, value));
    // The cursor follows the provider's page, so an entry skipped at the end of it is not listed again.
    const last = page.items.at(-1);
    if (!page.hasMore || !last) return { items };
    return { items, cursor: encodeListCursor(this.tenantId, prefix, last.key) };
  }

  async take<T>(key: string, schema?: ZodType<T>): Promise<T | null> {
    assertStateKey(key);
    const text = await this.provider.take(this.tenantId, key);
    return text === null ? null : readValue('take', key, text, schema);
  }

  /** One unreadable value must not hide the rest of the tenant's entries; `get` of its key still reports it. */
  private listedValue(key: string, text: string): Array<{ key: string; value: unknown }> {
    try {
      return [{ key, value: parseStateValue(text, { operation: 'list', key }) }];
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      this.logger?.warning(
        { tenantId: this.tenantId, operation: 'list', key, err: error.cause },
        'ctx.state list skipped a stored value that is not JSON',
      );
      return [];
    }
  }
}

/** Fail closed: without a tenant, distinct callers would silently share one namespace, so every call refuses. */
class TenantlessState implements ContextState {
  private async refuse(): Promise<never> {
    throw invalidRequest(
      'ctx.state needs a tenant: this request has none (its token carries no tenant claim, and the server maps no ' +
        'fallback tenant: MCP_AUTH_TENANT_CLAIM, MCP_AUTH_TENANT_FALLBACK)',
      { reason: 'state_tenant_missing' },
    );
  }

  get<T>(): Promise<T | null> {
    return this.refuse();
  }
  set(): Promise<void> {
    return this.refuse();
  }
  setIfAbsent(): Promise<boolean> {
    return this.refuse();
  }
  delete(): Promise<void> {
    return this.refuse();
  }
  deleteMany(): Promise<number> {
    return this.refuse();
  }
  getMany<T>(): Promise<Map<string, T>> {
    return this.refuse();
  }
  setMany(): Promise<void> {
    return this.refuse();
  }
  list(): Promise<StateListPage> {
    return this.refuse();
  }
  take<T>(): Promise<T | null> {
    return this.refuse();
  }
}

/** The `ctx.state` for one request; an undefined or empty tenant id yields a state whose every call rejects. */
export function createContextState(
  provider: StorageProvider,
  tenantId: string | undefined,
  logger?: StorageLogger,
): ContextState {
  return tenantId === undefined || tenantId === ''
    ? new TenantlessState()
    : new TenantState(provider, tenantId, logger);
}
