// A Map-based model of the StorageProvider contract (src/storage/storage-provider.ts) and fast-check commands that
// run each call on the model and on a real provider, comparing answers: values, booleans, counts, list pages. Both
// read one manual clock, which a command advances, so TTL boundaries are hit to the millisecond.
import fc from 'fast-check';
import { expect } from 'vitest';
import { McpError } from '../../src/errors/mcp-error.js';
import type { StorageProvider } from '../../src/storage/index.js';

interface ModelEntry {
  readonly value: string;
  readonly expiresAt: number | undefined;
}

export interface StorageModel {
  now: number;
  readonly tenants: Map<string, Map<string, ModelEntry>>;
}

export interface StorageReal {
  readonly provider: StorageProvider;
  readonly clock: { now: number };
}

type StorageCommand = fc.AsyncCommand<StorageModel, StorageReal>;

/** The live value of `key`, dropping an expired entry as the contract says every call must. */
function live(model: StorageModel, tenant: string, key: string): string | null {
  const entries = model.tenants.get(tenant);
  const entry = entries?.get(key);
  if (!entry) return null;
  if (entry.expiresAt !== undefined && entry.expiresAt <= model.now) {
    entries?.delete(key);
    return null;
  }
  return entry.value;
}

function write(model: StorageModel, tenant: string, key: string, value: string, ttlSeconds: number | undefined) {
  let entries = model.tenants.get(tenant);
  if (!entries) {
    entries = new Map();
    model.tenants.set(tenant, entries);
  }
  entries.set(key, { value, expiresAt: ttlSeconds === undefined ? undefined : model.now + ttlSeconds * 1000 });
}

function remove(model: StorageModel, tenant: string, key: string): string | null {
  const value = live(model, tenant, key);
  model.tenants.get(tenant)?.delete(key);
  return value;
}

const validTtl = (ttl: number | undefined) => ttl === undefined || (Number.isFinite(ttl) && ttl > 0);

/** Awaits a call the contract says must reject (a bad TTL) with McpError, leaving the store as it was. */
async function expectRejected(call: Promise<unknown>): Promise<void> {
  const outcome = await call.then(
    () => 'resolved',
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(McpError);
}

class SetCommand implements StorageCommand {
  constructor(
    readonly tenant: string,
    readonly key: string,
    readonly value: string,
    readonly ttlSeconds: number | undefined,
  ) {}
  check = () => true;
  async run(model: StorageModel, real: StorageReal) {
    const call = real.provider.set(this.tenant, this.key, this.value, { ttlSeconds: this.ttlSeconds });
    if (!validTtl(this.ttlSeconds)) return expectRejected(call);
    await call;
    write(model, this.tenant, this.key, this.value, this.ttlSeconds);
  }
  toString = () => `set(${show(this.tenant)}, ${show(this.key)}, ${show(this.value)}, ttl ${this.ttlSeconds})`;
}

class SetManyCommand implements StorageCommand {
  constructor(
    readonly tenant: string,
    readonly entries: ReadonlyMap<string, string>,
    readonly ttlSeconds: number | undefined,
  ) {}
  check = () => true;
  async run(model: StorageModel, real: StorageReal) {
    const call = real.provider.setMany(this.tenant, this.entries, { ttlSeconds: this.ttlSeconds });
    if (!validTtl(this.ttlSeconds)) return expectRejected(call);
    await call;
    for (const [key, value] of this.entries) write(model, this.tenant, key, value, this.ttlSeconds);
  }
  toString = () => `setMany(${show(this.tenant)}, ${show([...this.entries])}, ttl ${this.ttlSeconds})`;
}

class GetCommand implements StorageCommand {
  constructor(
    readonly tenant: string,
    readonly key: string,
  ) {}
  check = () => true;
  async run(model: StorageModel, real: StorageReal) {
    expect(await real.provider.get(this.tenant, this.key)).toBe(live(model, this.tenant, this.key));
  }
  toString = () => `get(${show(this.tenant)}, ${show(this.key)})`;
}

class GetManyCommand implements StorageCommand {
  constructor(
    readonly tenant: string,
    readonly keys: readonly string[],
  ) {}
  check = () => true;
  async run(model: StorageModel, real: StorageReal) {
    const expected = new Map<string, string>();
    for (const key of this.keys) {
      const value = live(model, this.tenant, key);
      if (value !== null) expected.set(key, value);
    }
    expect(await real.provider.getMany(this.tenant, this.keys)).toEqual(expected);
  }
  toString = () => `getMany(${show(this.tenant)}, ${show(this.keys)})`;
}

class DeleteCommand implements StorageCommand {
  constructor(
    readonly tenant: string,
    readonly key: string,
  ) {}
  check = () => true;
  async run(model: StorageModel, real: StorageReal) {
    expect(await real.provider.delete(this.tenant, this.key)).toBe(remove(model, this.tenant, this.key) !== null);
  }
  toString = () => `delete(${show(this.tenant)}, ${show(this.key)})`;
}

class DeleteManyCommand implements StorageCommand {
  constructor(
    readonly tenant: string,
    readonly keys: readonly string[],
  ) {}
  check = () => true;
  async run(model: StorageModel, real: StorageReal) {
    const removed = [...new Set(this.keys)].filter((key) => remove(model, this.tenant, key) !== null).length;
    expect(await real.provider.deleteMany(this.tenant, this.keys)).toBe(removed);
  }
  toString = () => `deleteMany(${show(this.tenant)}, ${show(this.keys)})`;
}

class TakeCommand implements StorageCommand {
  constructor(
    readonly tenant: string,
    readonly key: string,
  ) {}
  check = () => true;
  async run(model: StorageModel, real: StorageReal) {
    expect(await real.provider.take(this.tenant, this.key)).toBe(remove(model, this.tenant, this.key));
  }
  toString = () => `take(${show(this.tenant)}, ${show(this.key)})`;
}

class ListCommand implements StorageCommand {
  constructor(
    readonly tenant: string,
    readonly prefix: string,
    readonly after: string | undefined,
    readonly limit: number,
  ) {}
  check = () => true;
  async run(model: StorageModel, real: StorageReal) {
    const keys = [...(model.tenants.get(this.tenant)?.keys() ?? [])]
      .filter((key) => live(model, this.tenant, key) !== null)
      .filter((key) => key.startsWith(this.prefix) && (this.after === undefined || key > this.after))
      .sort();
    const page = await real.provider.list(this.tenant, this.prefix, { after: this.after, limit: this.limit });
    expect(page).toEqual({
      items: keys.slice(0, this.limit).map((key) => ({ key, value: live(model, this.tenant, key) })),
      hasMore: keys.length > this.limit,
    });
  }
  toString = () => `list(${show(this.tenant)}, ${show(this.prefix)}, after ${show(this.after)}, limit ${this.limit})`;
}

class AdvanceClockCommand implements StorageCommand {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: StorageModel, real: StorageReal) {
    model.now += this.ms;
    real.clock.now += this.ms;
  }
  toString = () => `advance(${this.ms} ms)`;
}

const show = (value: unknown) => JSON.stringify(value);

/**
 * Few names, so calls keep meeting the same entries: prefixes of each other, unicode, and lengths around the
 * filesystem provider's 100-byte path segment.
 *
 * Tenants include ill-formed ids ("acme\ud800" beside "acme\ufffd"): a token's `tid` claim can carry one, and the
 * filesystem provider once folded both into one directory. Keys stay well-formed: ctx.state admits no surrogate.
 */
export const storageKey = fc.constantFrom(
  'a',
  'a/b',
  'a/b/c',
  'ab',
  'b',
  '',
  '.',
  '../x',
  'ü/ä',
  'é',
  'e\u0301',
  '😀',
  '\ufffd',
  'k'.repeat(99),
  'k'.repeat(100),
  'k'.repeat(101),
  `${'k'.repeat(100)}/z`,
);
const tenant = fc.constantFrom(
  't1',
  't2',
  't1/t2',
  'acme\ufffd',
  'acme\ud800',
  'x'.repeat(150),
  `${'x'.repeat(150)}\udc00`,
);
const value = fc.oneof(fc.constantFrom('"v"', '{"a":1}', ''), fc.string({ unit: 'binary', maxLength: 12 }));
/** TTLs whose expiry the clock steps below land on exactly, and the invalid ones the contract rejects. */
const ttl = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 4 },
  { arbitrary: fc.constantFrom(0.25, 0.5, 1, 2.5, 3600), weight: 4 },
  { arbitrary: fc.constantFrom(0, -1, Number.NaN, Number.POSITIVE_INFINITY), weight: 1 },
);
const keys = fc.array(storageKey, { maxLength: 4 });

export const storageCommands = fc.commands(
  [
    fc.tuple(tenant, storageKey, value, ttl).map(([t, k, v, s]) => new SetCommand(t, k, v, s)),
    fc
      .tuple(tenant, fc.array(fc.tuple(storageKey, value), { maxLength: 4 }), ttl)
      .map(([t, entries, s]) => new SetManyCommand(t, new Map(entries), s)),
    fc.tuple(tenant, storageKey).map(([t, k]) => new GetCommand(t, k)),
    fc.tuple(tenant, keys).map(([t, k]) => new GetManyCommand(t, k)),
    fc.tuple(tenant, storageKey).map(([t, k]) => new DeleteCommand(t, k)),
    fc.tuple(tenant, keys).map(([t, k]) => new DeleteManyCommand(t, k)),
    fc.tuple(tenant, storageKey).map(([t, k]) => new TakeCommand(t, k)),
    fc
      .tuple(tenant, fc.constantFrom('', 'a', 'a/', 'a/b', 'k', 'ü', 'e'), fc.option(storageKey, { nil: undefined }))
      .chain(([t, prefix, after]) =>
        fc.integer({ min: 1, max: 5 }).map((limit) => new ListCommand(t, prefix, after, limit)),
      ),
    fc.constantFrom(0, 1, 250, 500, 1000, 2500, 3_600_000).map((ms) => new AdvanceClockCommand(ms)),
  ],
  { maxCommands: 50, size: 'large' },
);
