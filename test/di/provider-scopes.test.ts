// Provider scopes and constructor tokens: singletons may not hold request state, parameters TypeScript cannot name
// need @Inject, and request-scoped providers get the request's Context, once per request, disposed at its end.
import {
  CONTEXT,
  type Context,
  createToken,
  Inject,
  Injectable,
  type KilnGuard,
  Module,
  Tool,
  UseGuards,
} from 'mcp-kiln';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { KilnApp } from '../../src/app/kiln-app.js';
import { bootApp, bootProblem, bootProblems, capturedLog, closeBootedApps, fixtureModule } from './boot-app.js';

afterEach(closeBootedApps);

const NoInput = z.object({});

describe('singletons that depend on request state', () => {
  it('rejects a singleton injecting CONTEXT and a request-scoped provider, naming class, parameter and token', async () => {
    @Injectable({ scope: 'request' })
    class RequestClock {}
    @Injectable()
    class AuditLog {
      constructor(
        @Inject(CONTEXT) readonly context: Context,
        readonly clock: RequestClock,
      ) {}
    }
    @Module({ providers: [RequestClock, AuditLog] })
    class AuditModule {}

    const problems = await bootProblems(AuditModule);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain(
      "Singleton AuditLog (AuditModule) depends on request-scoped CONTEXT through constructor parameter #0 'context'.",
    );
    expect(problems[1]).toContain(
      "Singleton AuditLog (AuditModule) depends on request-scoped RequestClock through constructor parameter #1 'clock'.",
    );
    for (const problem of problems) expect(problem).toContain("Mark AuditLog @Injectable({ scope: 'request' })");
  });

  it('rejects a singleton factory whose inject list names CONTEXT', async () => {
    const TENANT_LABEL = createToken<string>('TENANT_LABEL');
    const problem = await bootProblem(
      fixtureModule(
        { providers: [{ provide: TENANT_LABEL, useFactory: (ctx: Context) => ctx.tenantId, inject: [CONTEXT] }] },
        'LabelModule',
      ),
    );
    expect(problem).toContain('Singleton TENANT_LABEL (LabelModule) depends on request-scoped CONTEXT');
  });
});

describe('constructor parameters without a runtime type', () => {
  interface Clock {
    now(): number;
  }

  it('rejects an interface-typed parameter with no @Inject, naming the class and the parameter', async () => {
    @Injectable()
    class Scheduler {
      constructor(readonly clock: Clock) {}
    }
    const problem = await bootProblem(fixtureModule({ providers: [Scheduler] }));
    expect(problem).toBe(
      "Scheduler constructor parameter #0 'clock' has no resolvable injection token: TypeScript recorded Object. " +
        'Use a class type, or name the token with @Inject(TOKEN).',
    );
  });

  it('rejects a union-typed parameter of a tool the same way', async () => {
    @Tool('pick_mode', { description: 'Picks a mode.', input: NoInput })
    class PickModeTool {
      constructor(readonly mode: 'fast' | 'safe') {}
      handle() {
        return this.mode;
      }
    }
    const problem = await bootProblem(fixtureModule({ tools: [PickModeTool] }));
    expect(problem).toContain("PickModeTool constructor parameter #0 'mode' has no resolvable injection token");
  });

  it('accepts the same parameter once @Inject names its token', async () => {
    const CLOCK = createToken<Clock>('CLOCK');
    @Injectable()
    class Scheduler {
      constructor(@Inject(CLOCK) readonly clock: Clock) {}
    }
    @Tool('next_run', { description: 'Says when the next run is.', input: NoInput })
    class NextRunTool {
      constructor(private readonly scheduler: Scheduler) {}
      handle() {
        return `next run at ${this.scheduler.clock.now() + 60}`;
      }
    }
    const app = await bootApp(
      fixtureModule({
        providers: [{ provide: CLOCK, useValue: { now: () => 1000 } }, Scheduler],
        tools: [NextRunTool],
      }),
    );
    expect((await app.callTool('next_run')).content).toEqual([{ type: 'text', text: 'next run at 1060' }]);
  });
});

describe('request-scoped providers', () => {
  const Seen = z.object({
    handlerRequestId: z.string().describe('The requestId the handler saw'),
    providerRequestId: z.string().describe('The requestId the provider saw'),
    instance: z.number().describe('Which RequestStamp instance served the call'),
    shared: z.boolean().describe('Whether both consumers got the same instance'),
  });

  function stampFixture() {
    let built = 0;
    @Injectable({ scope: 'request' })
    class RequestStamp {
      readonly instance = ++built;
      constructor(@Inject(CONTEXT) readonly context: Context) {}
    }
    @Injectable({ scope: 'request' })
    class StampReader {
      constructor(readonly stamp: RequestStamp) {}
    }
    @Tool('whoami', { description: 'Reports which request it serves.', input: NoInput, output: Seen })
    class WhoAmITool {
      constructor(
        private readonly stamp: RequestStamp,
        private readonly reader: StampReader,
      ) {}
      handle(_input: unknown, ctx: Context) {
        return {
          handlerRequestId: ctx.requestId,
          providerRequestId: this.stamp.context.requestId,
          instance: this.stamp.instance,
          shared: this.reader.stamp === this.stamp,
        };
      }
    }
    return {
      module: fixtureModule({ providers: [RequestStamp, StampReader], tools: [WhoAmITool] }),
      built: () => built,
    };
  }

  it('builds none at boot, then one fresh instance per request that sees that request', async () => {
    const fixture = stampFixture();
    const app = await bootApp(fixture.module);
    expect(fixture.built()).toBe(0);

    const first = (await app.callTool('whoami')).structuredContent as z.output<typeof Seen>;
    const second = (await app.callTool('whoami')).structuredContent as z.output<typeof Seen>;
    expect(first.providerRequestId).toBe(first.handlerRequestId);
    expect(second.providerRequestId).toBe(second.handlerRequestId);
    expect(second.handlerRequestId).not.toBe(first.handlerRequestId);
    expect([first.instance, second.instance]).toEqual([1, 2]);
    expect(fixture.built()).toBe(2);
  });

  it('shares one instance among every consumer within a request', async () => {
    const app = await bootApp(stampFixture().module);
    const result = (await app.callTool('whoami')).structuredContent as z.output<typeof Seen>;
    expect(result.shared).toBe(true);
  });

  it('keeps concurrent requests apart', async () => {
    const app = await bootApp(stampFixture().module);
    const results = await Promise.all([app.callTool('whoami'), app.callTool('whoami'), app.callTool('whoami')]);
    for (const result of results) {
      const seen = result.structuredContent as z.output<typeof Seen>;
      expect(seen.providerRequestId).toBe(seen.handlerRequestId);
    }
    const instances = results.map((r) => (r.structuredContent as z.output<typeof Seen>).instance);
    expect(new Set(instances).size).toBe(3);
  });
});

describe('disposal at the end of a request', () => {
  function connectionFixture(options: { fail: boolean }) {
    const events: string[] = [];
    @Injectable({ scope: 'request' })
    class Connection {
      constructor(@Inject(CONTEXT) readonly context: Context) {}
      async dispose() {
        await Promise.resolve();
        events.push(`disposed ${this.context.requestId}`);
      }
    }
    @Injectable()
    class ConnectionPool {
      dispose() {
        events.push('pool disposed');
      }
    }
    @Tool('use_connection', { description: 'Uses a connection for one request.', input: NoInput })
    class UseConnectionTool {
      constructor(
        private readonly connection: Connection,
        readonly pool: ConnectionPool,
      ) {}
      handle() {
        events.push(`handled ${this.connection.context.requestId}`);
        if (options.fail) throw new Error('upstream refused the query');
        return 'done';
      }
    }
    return { module: fixtureModule({ providers: [Connection, ConnectionPool], tools: [UseConnectionTool] }), events };
  }

  it('disposes a request-scoped Disposable once the handler has finished, before the call resolves', async () => {
    const { module, events } = connectionFixture({ fail: false });
    const app = await bootApp(module);
    await app.callTool('use_connection');
    expect(events).toHaveLength(2);
    const requestId = events[0]?.replace('handled ', '');
    expect(events).toEqual([`handled ${requestId}`, `disposed ${requestId}`]);
  });

  it('disposes it when the handler throws too', async () => {
    const { module, events } = connectionFixture({ fail: true });
    const log = capturedLog();
    const app = await bootApp(module, log.options);
    const result = await app.callTool('use_connection');
    expect(result.isError).toBe(true);
    expect(events.filter((e) => e.startsWith('disposed'))).toHaveLength(1);
    expect(log.lines.some((line) => line.msg === 'Tool use_connection failed unexpectedly')).toBe(true);
  });

  it('leaves singletons alone until the app closes', async () => {
    const { module, events } = connectionFixture({ fail: false });
    const app = await bootApp(module);
    await app.callTool('use_connection');
    await app.callTool('use_connection');
    expect(events).not.toContain('pool disposed');
    await app.close();
    expect(events.filter((e) => e === 'pool disposed')).toHaveLength(1);
  });

  it('disposes a request-scoped factory value that is Disposable', async () => {
    const events: string[] = [];
    const SESSION = createToken<{ id: string }>('SESSION');
    @Tool('use_session', { description: 'Uses a session for one request.', input: NoInput })
    class UseSessionTool {
      constructor(@Inject(SESSION) private readonly session: { id: string }) {}
      handle() {
        return this.session.id;
      }
    }
    const app = await bootApp(
      fixtureModule({
        providers: [
          {
            provide: SESSION,
            scope: 'request',
            inject: [CONTEXT],
            useFactory: (ctx: Context) => ({
              id: ctx.requestId,
              dispose: () => events.push(`closed ${ctx.requestId}`),
            }),
          },
        ],
        tools: [UseSessionTool],
      }),
    );
    const result = await app.callTool('use_session');
    const requestId = (result.content[0] as { text: string }).text;
    expect(events).toEqual([`closed ${requestId}`]);
  });
});

describe('definitions whose dependencies are all singletons or the Context', () => {
  const Built = z.object({
    requestId: z.string().describe('The requestId of the Context the constructor got'),
    sameClock: z.boolean().describe('Whether the singleton is the one the app built'),
    instance: z.number().describe('Which tool instance served the call'),
  });

  function singletonFixture() {
    const events: string[] = [];
    let instances = 0;
    @Injectable()
    class Clock {
      readonly id = 'clock';
    }
    @Tool('built_directly', { description: 'Reports what its constructor got.', input: NoInput, output: Built })
    class BuiltDirectlyTool {
      readonly instance = ++instances;
      constructor(
        @Inject(CONTEXT) private readonly first: Context,
        readonly clock: Clock,
        @Inject(CONTEXT) private readonly second: Context,
      ) {}
      handle(_input: unknown, ctx: Context) {
        events.push(`handled ${ctx.requestId}`);
        expect(this.second).toBe(this.first);
        return { requestId: this.first.requestId, sameClock: this.clock === clockOf(), instance: this.instance };
      }
      dispose() {
        events.push(`disposed ${this.first.requestId}`);
      }
    }
    let app: KilnApp | undefined;
    const clockOf = () => app?.get(Clock);
    return {
      module: fixtureModule({ providers: [Clock], tools: [BuiltDirectlyTool] }),
      events,
      attach: (booted: KilnApp) => {
        app = booted;
      },
    };
  }

  it('builds a fresh instance per request with the app’s singletons and this request’s Context, in parameter order', async () => {
    const fixture = singletonFixture();
    const app = await bootApp(fixture.module);
    fixture.attach(app);
    const first = (await app.callTool('built_directly')).structuredContent as z.output<typeof Built>;
    const second = (await app.callTool('built_directly')).structuredContent as z.output<typeof Built>;
    expect(first.sameClock).toBe(true);
    expect(second.sameClock).toBe(true);
    expect([first.instance, second.instance]).toEqual([1, 2]);
    expect(second.requestId).not.toBe(first.requestId);
    expect(fixture.events).toEqual([
      `handled ${first.requestId}`,
      `disposed ${first.requestId}`,
      `handled ${second.requestId}`,
      `disposed ${second.requestId}`,
    ]);
  });

  it('shares a request-scoped provider between such a definition’s guard and a handler that injects it', async () => {
    let built = 0;
    @Injectable({ scope: 'request' })
    class Budget {
      readonly instance = ++built;
      spent = 0;
      constructor(@Inject(CONTEXT) readonly context: Context) {}
    }
    @Injectable({ scope: 'request' })
    class SpendGuard implements KilnGuard {
      constructor(private readonly budget: Budget) {}
      canActivate() {
        this.budget.spent += 1;
        return true;
      }
    }
    @Tool('spend', { description: 'Reports the budget its guard spent.', input: NoInput })
    @UseGuards(SpendGuard)
    class SpendTool {
      constructor(private readonly budget: Budget) {}
      handle(_input: unknown, ctx: Context) {
        return `${this.budget.spent} ${this.budget.instance} ${this.budget.context.requestId === ctx.requestId}`;
      }
    }
    const app = await bootApp(fixtureModule({ providers: [Budget], tools: [SpendTool] }));
    const texts: string[] = [];
    for (let call = 0; call < 2; call++) {
      texts.push(((await app.callTool('spend')).content[0] as { text: string }).text);
    }
    expect(texts).toEqual(['1 1 true', '1 2 true']);
  });
});
