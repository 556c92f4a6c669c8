// Call policies on two instances sharing one real redis-server, over real HTTP with the official SDK client: a
// @RateLimit of N per window admits exactly N of 32 concurrent callers spread over both instances (2026-07-28, the
// rest refused 429 rate_limited); a @Quota admits exactly its limit of concurrent 2025 session calls; an answer
// @Cache stored by one instance is a hit on the other, whose handler never runs.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Cache, Injectable, Module, Quota, RateLimit, Tool, USAGE, type UsageLedger } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type HttpServing, http } from '../../modules/http/index.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';
import { uniquePrefix } from './redis-test-providers.js';

@Injectable()
class Runs {
  count = 0;
}

@RateLimit({ limit: 10, windowMs: 60_000, by: 'tenant' })
@Tool('generate_image', { description: 'Generates an image; ten per minute per tenant.', input: z.object({}) })
class GenerateImage {
  handle() {
    return 'image';
  }
}

@Quota({ limit: 7, period: 'day', by: 'tenant' })
@Tool('send_fax', { description: 'Sends a fax; seven per day per tenant.', input: z.object({}) })
class SendFax {
  handle() {
    return 'sent';
  }
}

@Cache({ ttlMs: 60_000 })
@Tool('geocode', {
  description: 'Geocodes an address.',
  input: z.object({ address: z.string().describe('The address') }),
  annotations: { readOnlyHint: true },
})
class Geocode {
  constructor(private readonly runs: Runs) {}
  handle(input: { address: string }) {
    this.runs.count++;
    return `${input.address}: 59.91N 10.75E`;
  }
}

@Module({ tools: [GenerateImage, SendFax, Geocode], providers: [Runs] })
class PoliciesModule {}

interface Instance {
  readonly testing: TestingApp;
  readonly serving: HttpServing;
}

let redis: RedisSingleServer;
let instances: [Instance, Instance];
const clients: Client[] = [];

async function startInstance(keyPrefix: string): Promise<Instance> {
  const testing = await createTestingModule({ imports: [PoliciesModule] }).compile({
    env: {
      MCP_TRANSPORT_TYPE: 'http',
      MCP_HTTP_PORT: '0',
      STORAGE_PROVIDER_TYPE: 'redis',
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: keyPrefix,
      MCP_USAGE_ACCOUNTING: 'on',
      // Flushed by the test, not by the timer.
      MCP_USAGE_FLUSH_MS: '600000',
    },
  });
  return { testing, serving: await testing.app.serve(http()) };
}

async function connect(instance: Instance, era: 'handshake' | 'envelope'): Promise<Client> {
  const client = new Client(
    { name: 'policy-client', version: '1.0.0' },
    era === 'envelope' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(instance.serving.endpointUrl)));
  clients.push(client);
  return client;
}

/** The reason a call was refused with, whether the client raised an McpError (200) or an HTTP error (429). */
function reasonOf(error: unknown): { reason: unknown; status: number | undefined } {
  const { code, data } = error as { code: unknown; data: { reason?: unknown; status?: number; text?: string } };
  if (typeof code === 'number') return { reason: data.reason, status: undefined };
  const body = JSON.parse(data.text ?? '{}') as { error?: { data?: { reason?: unknown } } };
  return { reason: body.error?.data?.reason, status: data.status };
}

beforeAll(async () => {
  redis = await startRedisServer();
  const keyPrefix = uniquePrefix();
  instances = [await startInstance(keyPrefix), await startInstance(keyPrefix)];
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  for (const instance of instances ?? []) {
    await instance.serving.close();
    await instance.testing.close();
  }
  await redis?.stop();
});

describe('call policies across two instances on one Redis', () => {
  it('admits exactly the rate limit of 32 concurrent 2026-07-28 callers spread over both instances', async () => {
    const callers = await Promise.all(
      Array.from({ length: 32 }, (_, index) => connect(instances[index % 2] as Instance, 'envelope')),
    );
    const outcomes = await Promise.allSettled(
      callers.map((client) => client.callTool({ name: 'generate_image', arguments: {} })),
    );
    const admitted = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(admitted).toHaveLength(10);
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [reasonOf(outcome.reason)] : []));
    expect(refused).toHaveLength(22);
    expect(refused.every(({ reason, status }) => reason === 'rate_limited' && status === 429)).toBe(true);
  });

  it('admits exactly the quota of 16 concurrent 2025 session calls over both instances', async () => {
    const callers = await Promise.all(
      Array.from({ length: 16 }, (_, index) => connect(instances[index % 2] as Instance, 'handshake')),
    );
    const outcomes = await Promise.allSettled(
      callers.map((client) => client.callTool({ name: 'send_fax', arguments: {} })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(7);
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [reasonOf(outcome.reason)] : []));
    expect(refused).toHaveLength(9);
    expect(refused.every(({ reason }) => reason === 'quota_exceeded')).toBe(true);
  });

  it('serves an answer one instance cached from the other without running its handler', async () => {
    const [a, b] = instances;
    const onA = await connect(a, 'envelope');
    const onB = await connect(b, 'handshake');
    const first = await onA.callTool({ name: 'geocode', arguments: { address: 'Karl Johans gate 1' } });
    expect(first._meta?.['mcp-kiln/cache']).toBeUndefined();
    // The store is sent to Redis before the answer is written, so Redis has it before B's lookup arrives.
    const second = await onB.callTool({ name: 'geocode', arguments: { address: 'Karl Johans gate 1' } });
    expect(second._meta?.['mcp-kiln/cache']).toBe('hit');
    expect(second.content).toEqual(first.content);
    expect(a.testing.get(Runs).count).toBe(1);
    expect(b.testing.get(Runs).count).toBe(0);
  });

  it('adds up usage counted on both instances, readable from either', async () => {
    const [a, b] = instances;
    const onA = await connect(a, 'envelope');
    const onB = await connect(b, 'handshake');
    for (let index = 0; index < 3; index++)
      await onA.callTool({ name: 'geocode', arguments: { address: `A ${index}` } });
    for (let index = 0; index < 2; index++)
      await onB.callTool({ name: 'geocode', arguments: { address: `B ${index}` } });
    const usageOf = (instance: Instance) => instance.testing.get<UsageLedger>(USAGE);
    await Promise.all([usageOf(a).flush(), usageOf(b).flush()]);
    const fromA = await usageOf(a).daily('default');
    const fromB = await usageOf(b).daily('default');
    expect(fromA).toEqual(fromB);
    // Both instances' counts, the earlier tests' calls included: 32 image calls, 16 faxes, and 7 geocodes (the
    // cache test's miss on A and hit on B, then 3 on A and 2 on B).
    expect(fromA.find((row) => row.name === 'generate_image')).toMatchObject({ calls: 32, errors: 22 });
    expect(fromA.find((row) => row.name === 'send_fax')).toMatchObject({ calls: 16, errors: 9 });
    expect(fromA.find((row) => row.name === 'geocode')?.calls).toBe(7);
  });
});
