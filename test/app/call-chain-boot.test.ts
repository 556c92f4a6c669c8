// Boot checks of guards, interceptors and exception filters (reported in the KilnBootError with every other boot
// problem), and the testing kit replacing them like providers.
import {
  type CallHandler,
  CONTEXT,
  type Context,
  Errors,
  type HandlerContext,
  Inject,
  Injectable,
  type KilnExceptionFilter,
  type KilnGuard,
  type KilnInterceptor,
  Module,
  Tool,
  UseGuards,
  UseInterceptors,
} from 'mcp-kiln';
import { McpError } from 'mcp-kiln/errors';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Constructor } from '../../decorators/types.js';
import { bootProblem, bootProblems, closeBootedApps, fixtureModule } from '../di/boot-app.js';

const opened: TestingApp[] = [];
afterEach(async () => {
  await closeBootedApps();
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

class Hidden {}

@Injectable()
class NeedsHidden implements KilnGuard {
  constructor(readonly hidden: Hidden) {}
  canActivate(): boolean {
    return true;
  }
}

class NotAGuard {
  check(): boolean {
    return true;
  }
}

/** A tool class named `name` behind `decorate`, for fixtures that differ only in their parts. */
function guardedTool(name: string, decorate: (target: Constructor) => void): Constructor {
  const tool = {
    [name]: class {
      handle() {
        return 'ran';
      }
    },
  }[name] as Constructor;
  Tool(name.toLowerCase(), {
    description: 'A tool for the boot checks of guards and interceptors.',
    input: z.object({}),
  })(tool as never);
  decorate(tool);
  return tool;
}

describe('boot checks', () => {
  it('refuses a part that is not a class, or lacks its method', async () => {
    const problems = await bootProblems(
      fixtureModule({
        tools: [
          guardedTool('Instance', (t) => UseGuards(new NeedsHidden(new Hidden()) as never)(t)),
          guardedTool('Shapeless', (t) => UseInterceptors(NotAGuard as never)(t)),
        ],
      }),
    );
    expect(problems).toEqual([
      '@UseGuards on Instance lists an instance of NeedsHidden at position 1, which is not a class: list the class ' +
        'itself; Kiln builds it through DI for each request.',
      '@UseInterceptors on Shapeless lists NotAGuard, which has no intercept(ctx, call, next) method.',
    ]);
  });

  it('checks a part’s dependencies against the module that applies it', async () => {
    const problem = await bootProblem(
      fixtureModule({ tools: [guardedTool('Hides', (t) => UseGuards(NeedsHidden)(t))] }, 'HidingModule'),
    );
    expect(problem).toBe(
      "NeedsHidden (HidingModule) depends on Hidden (constructor parameter #0 'hidden'), which no module provides. " +
        "Add it to HidingModule's providers.",
    );
  });

  it('checks app-wide parts against what the root module sees', async () => {
    const plain = fixtureModule({ tools: [guardedTool('Plain', () => {})] });
    await expect(createTestingModule({ imports: [plain] }).compile({ guards: [NeedsHidden] })).rejects.toMatchObject({
      problems: [
        expect.stringMatching(/^NeedsHidden \(TestingRootModule\) depends on Hidden .*which no module provides/),
      ],
    });
    const exporting = fixtureModule({ providers: [Hidden], exports: [Hidden] }, 'HiddenModule');
    const app = await createTestingModule({ imports: [plain, exporting] }).compile({ guards: [NeedsHidden] });
    opened.push(app);
    expect((await app.callTool('plain')).content).toEqual([{ type: 'text', text: 'ran' }]);
  });

  it('refuses a singleton part that injects the request Context', async () => {
    @Injectable()
    class ContextGuard implements KilnGuard {
      constructor(@Inject(CONTEXT) readonly ctx: Context) {}
      canActivate(): boolean {
        return true;
      }
    }
    const problem = await bootProblem(
      fixtureModule({ providers: [ContextGuard], tools: [guardedTool('Scoped', (t) => UseGuards(ContextGuard)(t))] }),
    );
    expect(problem).toMatch(/^Singleton ContextGuard \(FixtureModule\) depends on request-scoped CONTEXT/);
  });
});

class DenyAll implements KilnGuard {
  canActivate(): boolean {
    return false;
  }
}

class Wrap implements KilnInterceptor {
  async intercept(_ctx: Context, _call: unknown, next: CallHandler): Promise<unknown> {
    return `wrapped ${String(await next.handle())}`;
  }
}

@Tool('locked_tool', { description: 'A tool every caller is refused, for the override tests.', input: z.object({}) })
@UseGuards(DenyAll)
@UseInterceptors(Wrap)
class LockedTool {
  handle() {
    return 'ran';
  }
}

class NeverMaps implements KilnExceptionFilter<typeof Contract> {
  catch(_error: unknown, _ctx: HandlerContext<typeof Contract>): McpError | undefined {
    return undefined;
  }
}

const Contract = [
  {
    reason: 'mapped_in_test',
    code: -32001,
    when: 'A test filter mapped the error.',
    recovery: 'Nothing to do, this is a test.',
  },
] as const;

@Module({ tools: [LockedTool] })
class LockedModule {}

describe('testing kit overrides', () => {
  it('overrideGuard and overrideInterceptor replace parts no module provides', async () => {
    const locked = await createTestingModule({ imports: [LockedModule] }).compile();
    opened.push(locked);
    expect((await locked.callTool('locked_tool')).structuredContent).toMatchObject({
      error: { data: { reason: 'forbidden_by_guard', guard: 'DenyAll' } },
    });
    const open = await createTestingModule({ imports: [LockedModule] })
      .overrideGuard(DenyAll)
      .useValue({ canActivate: () => true })
      .overrideInterceptor(Wrap)
      .useClass(
        class Unwrapped implements KilnInterceptor {
          intercept(_ctx: Context, _call: unknown, next: CallHandler) {
            return next.handle();
          }
        },
      )
      .compile();
    opened.push(open);
    expect((await open.callTool('locked_tool')).content).toEqual([{ type: 'text', text: 'ran' }]);
  });

  it('overrideFilter replaces an app-wide filter', async () => {
    class Unmapped extends Error {}
    @Tool('failing_tool', {
      description: 'A tool that always fails, for the filter override tests.',
      input: z.object({}),
    })
    @Errors(Contract)
    class FailingTool {
      handle(): never {
        throw new Unmapped('nope');
      }
    }
    const app = await createTestingModule({ imports: [fixtureModule({ tools: [FailingTool] })] })
      .overrideFilter(NeverMaps)
      .useValue({ catch: (_error: unknown, ctx: HandlerContext<typeof Contract>) => ctx.fail('mapped_in_test') })
      .compile({ filters: [NeverMaps] });
    opened.push(app);
    expect((await app.callTool('failing_tool')).structuredContent).toMatchObject({
      error: { data: { reason: 'mapped_in_test' } },
    });
  });

  it('overrideGuard of a guard nothing applies is a boot error', async () => {
    await expect(
      createTestingModule({ imports: [fixtureModule({})] })
        .overrideGuard(DenyAll)
        .useValue({ canActivate: () => true })
        .compile(),
    ).rejects.toMatchObject({
      problems: [
        'overrideGuard(DenyAll): no definition, module or compile option of the testing module applies it, so ' +
          'there is nothing to replace. Import the module whose definitions use it.',
      ],
    });
  });
});
