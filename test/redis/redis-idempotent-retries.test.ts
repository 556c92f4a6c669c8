// Truthful outcomes and safe retries with a real redis-server frozen (SIGSTOP) in the middle of a call, served over
// real HTTP to the official SDK client by two instances on one Redis. A write sent to the frozen server is reported
// storage_outcome_unknown, never "retry", and Redis does apply it once it goes on; a client retrying without an
// idempotency key makes a duplicate, one retrying with its key gets the first call's answer and makes none, on
// either instance, however many retries it sends at once.
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Context, Injectable, Module, Tool } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type HttpServing, http } from '../../modules/http/index.js';
import { RedisStorageProvider } from '../../modules/redis/index.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';
import { uniquePrefix } from './redis-test-providers.js';

const KEY_META = 'mcp-kiln/idempotency-key';
const TENANT = 'default';

/** What the next ledger_add does before its write: nothing, or freeze Redis (armed by a test). */
@Injectable()
class FaultSwitch {
  beforeWrite: (() => void) | undefined;
}

const Entry = z.object({ id: z.string().describe('The new entry’s id') });

@Tool('ledger_add', {
  description: 'Adds an amount to the ledger as a new entry with a fresh id, and returns the id.',
  input: z.object({ amount: z.number().describe('The amount') }),
  output: Entry,
  idempotent: true,
})
class LedgerAdd {
  constructor(private readonly faults: FaultSwitch) {}

  async handle(input: { amount: number }, ctx: Context) {
    const fault = this.faults.beforeWrite;
    this.faults.beforeWrite = undefined;
    fault?.();
    const id = randomUUID();
    await ctx.state.set(`ledger/${id}`, input.amount);
    return { id };
  }
}

@Module({ tools: [LedgerAdd], providers: [FaultSwitch] })
class LedgerModule {}

interface Instance {
  readonly testing: TestingApp;
  readonly serving: HttpServing;
  readonly client: Client;
}

let redis: RedisSingleServer;
let keyPrefix: string;
let instances: [Instance, Instance];
let ledger: RedisStorageProvider;

async function startInstance(): Promise<Instance> {
  const testing = await createTestingModule({ imports: [LedgerModule] }).compile({
    env: {
      MCP_TRANSPORT_TYPE: 'http',
      MCP_HTTP_PORT: '0',
      STORAGE_PROVIDER_TYPE: 'redis',
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: keyPrefix,
    },
  });
  const serving = await testing.app.serve(http());
  const client = new Client(
    { name: 'ledger-client', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.endpointUrl)));
  return { testing, serving, client };
}

beforeAll(async () => {
  redis = await startRedisServer();
  keyPrefix = uniquePrefix();
  instances = [await startInstance(), await startInstance()];
  ledger = new RedisStorageProvider({ connection: { url: redis.url, keyPrefix } });
});

afterAll(async () => {
  redis?.thaw();
  await ledger?.close();
  for (const instance of instances ?? []) {
    await instance.client.close();
    await instance.serving.close();
    await instance.testing.close();
  }
  await redis?.stop();
});

const entries = async () => (await ledger.list(TENANT, 'ledger/', { limit: 1000 })).items.length;

function add(instance: Instance, amount: number, key?: string) {
  return instance.client.callTool({
    name: 'ledger_add',
    arguments: { amount },
    ...(key === undefined ? {} : { _meta: { [KEY_META]: key } }),
  });
}

/** The next ledger_add on `instance` freezes Redis just before its write. */
function freezeOnNextWrite(instance: Instance): void {
  instance.testing.app.get(FaultSwitch).beforeWrite = () => redis.freeze();
}

const errorOf = (result: Awaited<ReturnType<typeof add>>) =>
  (result.structuredContent as { error: { data: Record<string, unknown> } }).error;

describe('a call whose write Redis received frozen', () => {
  it('is answered storage_outcome_unknown with no advice to retry, and the write lands once Redis goes on', async () => {
    const [a] = instances;
    const before = await entries();
    freezeOnNextWrite(a);
    const result = await add(a, 10);
    redis.thaw();

    expect(result.isError).toBe(true);
    const error = errorOf(result);
    expect(error.data).toMatchObject({ reason: 'storage_outcome_unknown', repeatable: true });
    expect(JSON.stringify(error)).not.toMatch(/retry the request|retry in a few seconds/i);
    expect((error.data.recovery as { hint: string }).hint).toMatch(/check before calling again/i);
    // The write was sent, so it was applied: "failed, retry" would have been false.
    await vi.waitFor(async () => expect(await entries()).toBe(before + 1));

    // A client that retried anyway, without a key, makes a second entry: what the key is for.
    expect((await add(a, 10)).isError).toBeFalsy();
    expect(await entries()).toBe(before + 2);
  });

  it('makes 0 duplicates when the client retries with its idempotency key, on either instance and all at once', async () => {
    const [a, b] = instances;
    const key = randomUUID();
    const before = await entries();
    freezeOnNextWrite(a);
    const first = await add(a, 25, key);
    redis.thaw();
    expect(errorOf(first).data).toMatchObject({ reason: 'storage_outcome_unknown' });
    await vi.waitFor(async () => expect(await entries()).toBe(before + 1));

    // Recorded after the write on the same connection, the first outcome is there once the write is.
    const retries = await Promise.all([
      add(a, 25, key),
      add(b, 25, key),
      ...Array.from({ length: 8 }, (_, index) => add(index % 2 === 0 ? a : b, 25, key)),
    ]);
    for (const retry of retries) {
      expect(retry._meta).toMatchObject({ 'mcp-kiln/idempotent-replay': true });
      expect(retry.structuredContent).toEqual(first.structuredContent);
    }
    expect(await entries()).toBe(before + 1);
  });
});

describe('idempotency keys without faults', () => {
  it('runs a keyed call once: ten concurrent calls across both instances make one entry', async () => {
    const [a, b] = instances;
    const key = randomUUID();
    const before = await entries();
    const results = await Promise.all(Array.from({ length: 10 }, (_, index) => add(index % 2 ? a : b, 5, key)));
    expect(await entries()).toBe(before + 1);
    const ran = results.filter((result) => !result.isError && result._meta?.['mcp-kiln/idempotent-replay'] !== true);
    expect(ran).toHaveLength(1);
    for (const result of results) {
      if (result.isError) expect(errorOf(result).data).toMatchObject({ reason: 'idempotency_key_in_use' });
      else expect(result.structuredContent).toEqual(ran[0]?.structuredContent);
    }
    const later = await add(b, 5, key);
    expect(later.structuredContent).toEqual(ran[0]?.structuredContent);
    expect(await entries()).toBe(before + 1);
  });

  it('keeps keys apart per caller and per tool input, and refuses a malformed key', async () => {
    const [a] = instances;
    const before = await entries();
    const one = await add(a, 1, 'order-1');
    const two = await add(a, 1, 'order-2');
    expect(one.structuredContent).not.toEqual(two.structuredContent);
    expect(await entries()).toBe(before + 2);
    await expect(add(a, 1, 'has spaces')).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'invalid_idempotency_key' },
    });
    expect(await entries()).toBe(before + 2);
  });
});
