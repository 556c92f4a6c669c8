// @Cache through the official SDK client on both protocol versions (in memory, and over real HTTP for the 2026-07-28
// cache hints): a hit skips the handler and is marked `_meta["mcp-kiln/cache"]: "hit"`; answers are keyed by the
// validated arguments (key order and repaired values do not matter) and kept per tenant unless declared public, per
// subject when declared so; error answers are never stored; the app clock expires them. A resource's 2026-07-28
// ttlMs says how long the cache will still serve its answer. Boot refuses what cannot be cached, naming the class.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Cache, type Context, Errors, Injectable, Module, Prompt, RequiresConsent, Resource, Tool } from 'mcp-kiln';
import { createTestingModule, type TestingApp, type TestingPrincipal } from 'mcp-kiln/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { http } from '../../modules/http/index.js';
import { bootProblems, closeBootedApps, fixtureModule } from '../di/boot-app.js';
import { manualClock } from '../storage/storage-test-helpers.js';
import { counterSum, registerOtelSdk } from '../telemetry/otel-sdk.js';

@Injectable()
class Runs {
  readonly counts = new Map<string, number>();
  bump(name: string): number {
    const next = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, next);
    return next;
  }
  of(name: string): number {
    return this.counts.get(name) ?? 0;
  }
}

const Lookup = z.object({
  city: z.string().describe('The city'),
  units: z.enum(['metric', 'imperial']).default('metric').describe('Units'),
});

@Cache({ ttlMs: 60_000 })
@Tool('weather_lookup', {
  description: 'Looks up the weather of a city.',
  input: Lookup,
  output: z.object({ city: z.string().describe('The city'), run: z.number().describe('Which handler run answered') }),
  annotations: { readOnlyHint: true },
})
class WeatherLookup {
  constructor(private readonly runs: Runs) {}
  handle(input: z.output<typeof Lookup>) {
    return { city: input.city, run: this.runs.bump('weather') };
  }
}

@Cache({ ttlMs: 60_000, scope: 'public' })
@Tool('exchange_rate', {
  description: 'The public exchange rate of a currency pair.',
  input: z.object({ pair: z.string().describe('Like EURUSD') }),
  annotations: { readOnlyHint: true },
})
class ExchangeRate {
  constructor(private readonly runs: Runs) {}
  handle() {
    return `run ${this.runs.bump('rate')}`;
  }
}

@Cache({ ttlMs: 60_000, scope: 'subject' })
@Tool('my_inbox', {
  description: 'The caller’s own inbox count.',
  input: z.object({}),
  annotations: { readOnlyHint: true },
})
class MyInbox {
  constructor(private readonly runs: Runs) {}
  handle(_input: unknown, ctx: Context) {
    return `${ctx.auth?.subject} run ${this.runs.bump('inbox')}`;
  }
}

@Cache({ ttlMs: 60_000 })
@Errors([
  {
    reason: 'upstream_down',
    code: -32603,
    when: 'The upstream service did not answer',
    recovery: 'Call again in a minute.',
  },
] as const)
@Tool('flaky_lookup', {
  description: 'Fails on its first run, then answers.',
  input: z.object({}),
  annotations: { readOnlyHint: true },
})
class FlakyLookup {
  constructor(private readonly runs: Runs) {}
  handle(_input: unknown, ctx: Context) {
    const run = this.runs.bump('flaky');
    if (run === 1)
      throw (ctx as unknown as { fail: (reason: string, message: string) => Error }).fail(
        'upstream_down',
        'No answer.',
      );
    return `run ${run}`;
  }
}

@Cache({ ttlMs: 60_000 })
@Resource('catalog://items/{sku}', { name: 'item', description: 'One catalogue item.', mimeType: 'text/plain' })
class CatalogItem {
  constructor(private readonly runs: Runs) {}
  handle(_params: unknown, ctx: Context) {
    return `${ctx.uri?.pathname} run ${this.runs.bump('item')}`;
  }
}

@Cache({ ttlMs: 30_000 })
@Prompt('greeting', {
  description: 'A greeting for a name.',
  args: z.object({ name: z.string().describe('Who to greet') }),
})
class Greeting {
  constructor(private readonly runs: Runs) {}
  handle(args: { name: string }) {
    return [
      {
        role: 'user' as const,
        content: { type: 'text' as const, text: `Hi ${args.name} (${this.runs.bump('greet')})` },
      },
    ];
  }
}

@Module({
  tools: [WeatherLookup, ExchangeRate, MyInbox, FlakyLookup],
  resources: [CatalogItem],
  prompts: [Greeting],
  providers: [Runs],
})
class CachedModule {}

const apps: TestingApp[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await Promise.all(apps.map((app) => app.close()));
  await closeBootedApps();
});

async function compiled(env: Record<string, string> = {}) {
  const clock = manualClock(Date.UTC(2026, 11, 5, 10, 0, 0));
  const testing = await createTestingModule({ imports: [CachedModule] }).compile({ clock: clock.now, env });
  apps.push(testing);
  return { testing, clock, runs: testing.get(Runs) };
}

const ada: TestingPrincipal = { clientId: 'app', subject: 'ada', tenantId: 'acme' };
const bob: TestingPrincipal = { clientId: 'app', subject: 'bob', tenantId: 'acme' };
const eve: TestingPrincipal = { clientId: 'app', subject: 'eve', tenantId: 'globex' };

describe.each(['handshake', 'envelope'] as const)('@Cache (%s era)', (era) => {
  it('answers equal arguments from the cache, whatever their key order, until the entry expires', async () => {
    const { testing, clock, runs } = await compiled();
    const client = await testing.connectClient({ era });
    const first = await client.callTool({ name: 'weather_lookup', arguments: { city: 'Oslo', units: 'metric' } });
    expect(first.structuredContent).toEqual({ city: 'Oslo', run: 1 });
    expect(first._meta?.['mcp-kiln/cache']).toBeUndefined();
    // The same validated arguments: the default filled in, the keys in another order.
    const again = await client.callTool({ name: 'weather_lookup', arguments: { city: 'Oslo' } });
    expect(again.structuredContent).toEqual({ city: 'Oslo', run: 1 });
    expect(again._meta?.['mcp-kiln/cache']).toBe('hit');
    expect((await client.callTool({ name: 'weather_lookup', arguments: { city: 'Rome' } })).structuredContent).toEqual({
      city: 'Rome',
      run: 2,
    });
    expect(runs.of('weather')).toBe(2);
    clock.advanceMs(60_000);
    expect((await client.callTool({ name: 'weather_lookup', arguments: { city: 'Oslo' } })).structuredContent).toEqual({
      city: 'Oslo',
      run: 3,
    });
  });

  it('keeps answers per tenant, per subject where declared, and shares public ones', async () => {
    const { testing, runs } = await compiled();
    const a = await testing.connectClient({ era, auth: ada });
    const b = await testing.connectClient({ era, auth: bob });
    const e = await testing.connectClient({ era, auth: eve });
    const weather = (client: Client) => client.callTool({ name: 'weather_lookup', arguments: { city: 'Oslo' } });
    await weather(a);
    expect((await weather(b))._meta?.['mcp-kiln/cache']).toBe('hit');
    expect((await weather(e))._meta?.['mcp-kiln/cache']).toBeUndefined();
    expect(runs.of('weather')).toBe(2);

    const inbox = (client: Client) => client.callTool({ name: 'my_inbox', arguments: {} });
    expect((await inbox(a)).content).toEqual([{ type: 'text', text: 'ada run 1' }]);
    expect((await inbox(b)).content).toEqual([{ type: 'text', text: 'bob run 2' }]);
    expect((await inbox(a)).content).toEqual([{ type: 'text', text: 'ada run 1' }]);

    const rate = (client: Client) => client.callTool({ name: 'exchange_rate', arguments: { pair: 'EURUSD' } });
    await rate(a);
    expect((await rate(e))._meta?.['mcp-kiln/cache']).toBe('hit');
    expect(runs.of('rate')).toBe(1);
  });

  it('never stores an error answer', async () => {
    const { testing, runs } = await compiled();
    const client = await testing.connectClient({ era });
    const failed = await client.callTool({ name: 'flaky_lookup', arguments: {} });
    expect(failed.isError).toBe(true);
    expect((await client.callTool({ name: 'flaky_lookup', arguments: {} })).content).toEqual([
      { type: 'text', text: 'run 2' },
    ]);
    expect((await client.callTool({ name: 'flaky_lookup', arguments: {} }))._meta?.['mcp-kiln/cache']).toBe('hit');
    expect(runs.of('flaky')).toBe(2);
  });

  it('caches resource reads by URI and prompt gets by arguments', async () => {
    const { testing, runs } = await compiled();
    const client = await testing.connectClient({ era });
    await client.readResource({ uri: 'catalog://items/a1' });
    // On 2026-07-28 the client itself keeps the answer for its ttlMs, so another client asks the server.
    const reader = era === 'envelope' ? await testing.connectClient({ era }) : client;
    const hit = await reader.readResource({ uri: 'catalog://items/a1' });
    expect(hit.contents[0]).toMatchObject({ text: '/a1 run 1' });
    expect(hit._meta?.['mcp-kiln/cache']).toBe('hit');
    await client.readResource({ uri: 'catalog://items/b2' });
    expect(runs.of('item')).toBe(2);

    await client.getPrompt({ name: 'greeting', arguments: { name: 'Ada' } });
    const greeting = await client.getPrompt({ name: 'greeting', arguments: { name: 'Ada' } });
    expect(greeting._meta?.['mcp-kiln/cache']).toBe('hit');
    await client.getPrompt({ name: 'greeting', arguments: { name: 'Bob' } });
    expect(runs.of('greet')).toBe(2);
  });
});

describe('@Cache and the 2026-07-28 cache hints over HTTP', () => {
  it.each([
    ['fast path', {}],
    ['SDK entry', { MCP_HTTP_FAST_PATH: 'off' }],
  ] as const)('a resource read says how long the cache still serves it (%s)', async (_label, env) => {
    const { testing, clock } = await compiled({ MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', ...env });
    const serving = await testing.app.serve(http());
    closers.push(() => serving.close());
    const connect = async () => {
      const client = new Client(
        { name: 'hints', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(serving.endpointUrl)));
      closers.push(() => client.close());
      return client;
    };
    const miss = await (await connect()).readResource({ uri: 'catalog://items/z9' });
    expect(miss).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    clock.advanceMs(20_000);
    // A second client: the first honours the hint and answers the same read from its own cache.
    const hit = await (await connect()).readResource({ uri: 'catalog://items/z9' });
    expect(hit).toMatchObject({ ttlMs: 40_000, cacheScope: 'private', _meta: { 'mcp-kiln/cache': 'hit' } });
  });
});

describe('@Cache with OpenTelemetry on', () => {
  it('counts lookups as kiln.cache.lookups by hit or miss', async () => {
    const sdk = registerOtelSdk({ tracing: false });
    try {
      const { testing } = await compiled();
      for (const city of ['Oslo', 'Oslo', 'Oslo', 'Rome']) await testing.callTool('weather_lookup', { city });
      const lookups = (await sdk.collect()).get('kiln.cache.lookups');
      const of = (result: string) =>
        counterSum(lookups, { 'kiln.definition.name': 'weather_lookup', 'kiln.cache.result': result });
      expect({ hits: of('hit'), misses: of('miss') }).toEqual({ hits: 2, misses: 2 });
    } finally {
      await sdk.shutdown();
    }
  });
});

describe('what cannot be cached', () => {
  it('is a boot problem naming the class and why', async () => {
    @Cache({ ttlMs: 60_000 })
    @Tool('write_note', { description: 'Writes a note.', input: z.object({ text: z.string().describe('Text') }) })
    class WriteNote {
      handle() {
        return 'ok';
      }
    }
    const Target = z.object({ id: z.string().describe('Id') });
    @Cache({ ttlMs: 60_000 })
    @RequiresConsent({ message: 'Show it?', target: (input: { id: string }) => input.id })
    @Tool('show_secret', { description: 'Shows a secret.', input: Target, annotations: { readOnlyHint: true } })
    class ShowSecret {
      handle() {
        return 'secret';
      }
    }
    @Cache({ ttlMs: 60_000 })
    @Tool('ask_city', { description: 'Asks which city.', input: z.object({}), annotations: { readOnlyHint: true } })
    class AskCity {
      handle(_input: unknown, ctx: Context) {
        if (ctx.inputs.view('city').kind === 'missing')
          return ctx.requestInput({ city: { message: 'Which city?', schema: { type: 'string' } } } as never);
        return 'ok';
      }
    }
    @Cache({ ttlMs: 5, scope: 'everyone' as never })
    @Prompt('bad_cache', { description: 'A prompt with a bad cache.' })
    class BadCache {
      handle() {
        return [];
      }
    }
    @Cache({ ttlMs: 60_000 })
    @Module({ tools: [WriteNote, ShowSecret, AskCity], prompts: [BadCache] })
    class CachedEverything {}
    const problems = await bootProblems(CachedEverything);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^@Cache on module CachedEverything: put @Cache on the tools/),
        expect.stringMatching(
          /^@Cache on WriteNote: tool write_note may have side effects: only a tool declaring annotations: \{ readOnlyHint: true \}/,
        ),
        expect.stringMatching(/^@Cache on ShowSecret: tool show_secret asks for consent/),
        expect.stringMatching(/^@Cache on AskCity: tool ask_city asks the caller for input/),
        expect.stringMatching(
          /^@Cache on BadCache: ttlMs must be a whole number of milliseconds from 1000 to 86400000 \(got 5\); scope must be 'tenant', 'subject' or 'public'/,
        ),
      ]),
    );
    void fixtureModule;
  });
});
