// @RateLimit and @Quota over real transports: the official SDK client over HTTP on both protocol versions (the fast
// path's direct calls, and the SDK's own entry with the fast path off), and over stdio. A call over a limit is refused
// before its handler runs with -32004 (rate_limited / quota_exceeded, data.retryAfterMs); on 2026-07-28 HTTP also 429
// with Retry-After. The app's injected clock moves time: a rate refills one call per windowMs / limit, a quota starts
// again with the next UTC day. ctx.usage tells the handler what is left.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  type Context,
  Injectable,
  Module,
  Prompt,
  Quota,
  type QuotaOptions,
  RateLimit,
  type RateLimitOptions,
  Resource,
  Tool,
} from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { http } from '../../modules/http/index.js';
import { InMemoryStorageProvider, StorageService } from '../../src/storage/index.js';
import { bootProblem, bootProblems, closeBootedApps, fixtureModule } from '../di/boot-app.js';
import { manualClock } from '../storage/storage-test-helpers.js';

@Injectable()
class Runs {
  count = 0;
}

@RateLimit({ limit: 3, windowMs: 60_000, by: 'ip' })
@Tool('search_docs', {
  description: 'Searches the documentation and returns how many calls the caller has left this minute.',
  input: z.object({ query: z.string().describe('What to search for') }),
  output: z.object({ remaining: z.number().describe('Calls left') }),
})
class SearchDocs {
  constructor(private readonly runs: Runs) {}

  handle(_input: { query: string }, ctx: Context) {
    this.runs.count++;
    return { remaining: ctx.usage.rateLimits[0]?.remaining ?? -1 };
  }
}

@Quota({ limit: 2, period: 'day', by: 'tenant' })
@Tool('render_report', {
  description: 'Renders a report; two per tenant per day.',
  input: z.object({}),
  output: z.object({ left: z.number().describe('Reports left today'), resetsAt: z.string().describe('When') }),
})
class RenderReport {
  handle(_input: unknown, ctx: Context) {
    const quota = ctx.usage.quotas[0];
    return { left: quota?.remaining ?? -1, resetsAt: quota?.resetsAt ?? '' };
  }
}

@RateLimit({ limit: 2, windowMs: 10_000, by: (ctx) => ctx.operation ?? 'none' })
@Prompt('summarize', { description: 'A prompt asking for a summary.' })
class Summarize {
  handle() {
    return [{ role: 'user' as const, content: { type: 'text' as const, text: 'Summarize.' } }];
  }
}

@RateLimit({ limit: 1, windowMs: 5000, by: 'subject' })
@Resource('status://now', { name: 'status', description: 'The status now.', mimeType: 'text/plain' })
class Status {
  handle() {
    return 'green';
  }
}

@Module({ tools: [SearchDocs, RenderReport], prompts: [Summarize], resources: [Status], providers: [Runs] })
class DocsModule {}

const apps: TestingApp[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await Promise.all(apps.map((app) => app.close()));
  await closeBootedApps();
});

async function served(env: Record<string, string> = {}) {
  const clock = manualClock(Date.UTC(2026, 11, 5, 10, 0, 0));
  const testing = await createTestingModule({ imports: [DocsModule] }).compile({
    clock: clock.now,
    env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', ...env },
  });
  apps.push(testing);
  const serving = await testing.app.serve(http());
  closers.push(() => serving.close());
  const connect = async (era: 'handshake' | 'envelope') => {
    const client = new Client(
      { name: 'policy-test', version: '1.0.0' },
      era === 'envelope' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.endpointUrl)));
    closers.push(() => client.close());
    return client;
  };
  return { testing, serving, clock, connect, runs: testing.get(Runs) };
}

interface Refusal {
  readonly code: number;
  readonly data: Record<string, unknown>;
  /** The HTTP status, when the SDK client surfaced the refusal as an HTTP error (429 on 2026-07-28). */
  readonly status?: number;
}

/**
 * The JSON-RPC error a refused call got. The official SDK client raises a JSON-RPC error answered with 200 as an
 * McpError, and one answered with 429 as an SdkHttpError carrying the status and the body.
 */
async function refusal(call: Promise<unknown>): Promise<Refusal> {
  const error = (await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as { code: unknown; data: Record<string, unknown> } | undefined;
  expect(error, 'the call should have been refused').toBeDefined();
  if (typeof error?.code === 'number') return error as Refusal;
  const http = error?.data as { status: number; text: string };
  const body = JSON.parse(http.text) as { error: Refusal };
  return { ...body.error, status: http.status };
}

/** A raw 2026-07-28 tools/call, to see the HTTP status and headers the SDK client does not surface. */
function rawCall(url: string, name: string, args: Record<string, unknown>) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

describe.each([
  ['2026-07-28, fast path', 'envelope', {}],
  ['2026-07-28, SDK entry', 'envelope', { MCP_HTTP_FAST_PATH: 'off' }],
  ['2025-11-25 session', 'handshake', {}],
] as const)('@RateLimit over HTTP (%s)', (_label, era, env) => {
  it('admits the limit, refuses the next call before its handler runs, and refills one call per interval', async () => {
    const { connect, clock, runs } = await served(env);
    const client = await connect(era);
    const call = () => client.callTool({ name: 'search_docs', arguments: { query: 'limits' } });
    const remaining = [];
    for (let index = 0; index < 3; index++)
      remaining.push(((await call()).structuredContent as { remaining: number }).remaining);
    expect(remaining).toEqual([2, 1, 0]);
    const refused = await refusal(call());
    expect(refused.code).toBe(-32004);
    expect(refused.status).toBe(era === 'envelope' ? 429 : undefined);
    expect(refused.data).toMatchObject({ reason: 'rate_limited', limit: 3, windowMs: 60_000, by: 'ip' });
    expect(refused.data.retryAfterMs).toBe(20_000);
    expect(runs.count).toBe(3);
    clock.advanceMs(20_000);
    expect((await call()).structuredContent).toEqual({ remaining: 0 });
    await refusal(call());
    expect(runs.count).toBe(4);
  });
});

describe('@RateLimit on the 2026-07-28 HTTP wire', () => {
  it.each([
    ['fast path', {}],
    ['SDK entry', { MCP_HTTP_FAST_PATH: 'off' }],
  ] as const)('answers a refused call with HTTP 429 and Retry-After (%s)', async (_label, env) => {
    const { serving } = await served(env);
    for (let index = 0; index < 3; index++) {
      expect((await rawCall(serving.endpointUrl, 'search_docs', { query: 'x' })).status).toBe(200);
    }
    const response = await rawCall(serving.endpointUrl, 'search_docs', { query: 'x' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('20');
    const body = (await response.json()) as { error: { code: number; data: { reason: string } } };
    expect(body.error).toMatchObject({ code: -32004, data: { reason: 'rate_limited' } });
  });
});

describe('@RateLimit on prompts and resources, keyed by a function of the Context or the subject', () => {
  it('refuses prompts/get and resources/read over their limits on both eras', async () => {
    const { connect } = await served();
    const envelope = await connect('envelope');
    const handshake = await connect('handshake');
    await envelope.getPrompt({ name: 'summarize' });
    await handshake.getPrompt({ name: 'summarize' });
    // The key is the operation's name, so both clients share one count.
    expect((await refusal(envelope.getPrompt({ name: 'summarize' }))).data).toMatchObject({
      reason: 'rate_limited',
      by: 'custom',
    });
    expect((await envelope.readResource({ uri: 'status://now' })).contents[0]).toMatchObject({ text: 'green' });
    expect((await refusal(handshake.readResource({ uri: 'status://now' }))).data.reason).toBe('rate_limited');
  });
});

describe('@Quota', () => {
  it.each(['handshake', 'envelope'] as const)(
    'counts per tenant per UTC day and says what is left (%s)',
    async (era) => {
      const { connect, clock } = await served();
      const client = await connect(era);
      const render = () => client.callTool({ name: 'render_report', arguments: {} });
      expect((await render()).structuredContent).toEqual({ left: 1, resetsAt: '2026-12-06T00:00:00.000Z' });
      expect((await render()).structuredContent).toMatchObject({ left: 0 });
      const refused = await refusal(render());
      expect(refused.code).toBe(-32004);
      expect(refused.status).toBe(era === 'envelope' ? 429 : undefined);
      expect(refused.data).toMatchObject({
        reason: 'quota_exceeded',
        limit: 2,
        period: 'day',
        used: 2,
        resetsAt: '2026-12-06T00:00:00.000Z',
        by: 'tenant',
        retryAfterMs: 14 * 3_600_000,
      });
      clock.advanceMs(14 * 3_600_000);
      expect((await render()).structuredContent).toEqual({ left: 1, resetsAt: '2026-12-07T00:00:00.000Z' });
    },
  );

  it('holds over stdio too, where the app-wide quota counts every call together', async () => {
    const testing = await createTestingModule({ imports: [DocsModule] }).compile({
      quotas: [{ limit: 4, period: 'month' }],
    });
    apps.push(testing);
    const client = await testing.connectClient({ era: 'envelope' });
    await client.callTool({ name: 'search_docs', arguments: { query: 'a' } });
    await client.callTool({ name: 'render_report', arguments: {} });
    await client.getPrompt({ name: 'summarize' });
    await client.readResource({ uri: 'status://now' });
    expect((await refusal(client.callTool({ name: 'search_docs', arguments: { query: 'b' } }))).data).toMatchObject({
      reason: 'quota_exceeded',
      period: 'month',
      limit: 4,
    });
  });
});

describe('limits declared on a module and app-wide', () => {
  @Tool('catalog_find', { description: 'Finds items in the catalogue.', input: z.object({}) })
  class CatalogFind {
    handle() {
      return 'found';
    }
  }

  @Tool('catalog_count', { description: 'Counts items in the catalogue.', input: z.object({}) })
  class CatalogCount {
    handle() {
      return 'counted';
    }
  }

  @RateLimit({ limit: 2, windowMs: 60_000, by: 'tenant' })
  @Module({ tools: [CatalogFind, CatalogCount] })
  class CatalogModule {}

  it('counts the calls of every definition a module declares together', async () => {
    const testing = await createTestingModule({ imports: [CatalogModule] }).compile();
    apps.push(testing);
    const client = await testing.connectClient({ era: 'envelope' });
    await client.callTool({ name: 'catalog_find', arguments: {} });
    await client.callTool({ name: 'catalog_count', arguments: {} });
    expect((await refusal(client.callTool({ name: 'catalog_find', arguments: {} }))).data).toMatchObject({
      reason: 'rate_limited',
      limit: 2,
      by: 'tenant',
    });
  });

  it('counts every call of the app together under createApp({ rateLimits })', async () => {
    const testing = await createTestingModule({ imports: [DocsModule] }).compile({
      rateLimits: [{ limit: 2, windowMs: 60_000, by: 'tenant' }],
    });
    apps.push(testing);
    const client = await testing.connectClient({ era: 'handshake' });
    await client.callTool({ name: 'render_report', arguments: {} });
    await client.getPrompt({ name: 'summarize' });
    expect((await refusal(client.readResource({ uri: 'status://now' }))).data).toMatchObject({
      reason: 'rate_limited',
      limit: 2,
    });
  });
});

describe('bad policies at boot', () => {
  it('names the class and what is wrong', async () => {
    @RateLimit({ limit: -1, windowMs: 60_000 })
    @RateLimit({ limit: 5, windowMs: 10, by: 'planet' } as unknown as RateLimitOptions)
    @Tool('bad_limits', { description: 'A tool with bad limits.', input: z.object({}) })
    class BadLimits {
      handle() {
        return 'x';
      }
    }
    @Quota({ limit: 10, period: 'week' } as unknown as QuotaOptions)
    @Tool('bad_quota', { description: 'A tool with a bad quota.', input: z.object({}) })
    class BadQuota {
      handle() {
        return 'x';
      }
    }
    const problems = await bootProblems(fixtureModule({ tools: [BadLimits, BadQuota] }));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^@RateLimit on BadLimits \(the first\): limit must be a whole number from 1/),
        expect.stringMatching(
          /^@RateLimit on BadLimits \(the second\): windowMs must be .* \(got 10\); by must be 'tenant', 'subject', 'client', 'ip' or a function of the Context \(got "planet"\)/,
        ),
        expect.stringMatching(/^@Quota on BadQuota: period must be 'day' or 'month' \(got "week"\)/),
      ]),
    );
  });
});

describe('a storage provider that cannot count', () => {
  it('stops boot when the app declares limits', async () => {
    const provider = new InMemoryStorageProvider();
    Object.assign(provider, { claimRate: undefined, addCounter: undefined, readCounters: undefined });
    const problem = await bootProblem(fixtureModule({ tools: [SearchDocs], providers: [Runs] }), {
      storage: new StorageService(provider),
    });
    expect(problem).toMatch(/^Rate limits and quotas need a storage provider with counters/);
  });
});
