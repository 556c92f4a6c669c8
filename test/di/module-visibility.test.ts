// Module encapsulation at boot: a provider is visible only where it is provided, or exported to an importer
// (directly, through a re-export, or from a dynamic module). Every violation names the modules involved.
import { createToken, type DynamicModule, Inject, Injectable, Module, Tool } from 'mcp-kiln';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, bootProblem, closeBootedApps, fixtureModule } from './boot-app.js';

afterEach(closeBootedApps);

const NoInput = z.object({});
const Reply = z.object({ text: z.string().describe('What the tool read') });

@Injectable()
class Database {
  query(): string {
    return 'rows from the database';
  }
}

@Tool('db_query', { description: 'Reads rows from the database.', input: NoInput, output: Reply })
class QueryTool {
  constructor(private readonly database: Database) {}

  handle() {
    return { text: this.database.query() };
  }
}

describe('provider visibility across modules', () => {
  it('rejects a provider used by another module without being exported, naming both modules', async () => {
    @Module({ providers: [Database] })
    class DatabaseModule {}
    @Module({ imports: [DatabaseModule], tools: [QueryTool] })
    class ReportsModule {}

    const problem = await bootProblem(ReportsModule);
    expect(problem).toContain("QueryTool (ReportsModule) depends on Database (constructor parameter #0 'database')");
    expect(problem).toContain('ReportsModule cannot see');
    expect(problem).toContain('provided by DatabaseModule but not exported to ReportsModule');
    expect(problem).toContain("Add it to DatabaseModule's exports");
  });

  it('applies the same rule between providers, not only to tools', async () => {
    @Module({ providers: [Database] })
    class DatabaseModule {}
    @Injectable()
    class ReportService {
      constructor(readonly database: Database) {}
    }
    @Module({ imports: [DatabaseModule], providers: [ReportService] })
    class ReportsModule {}

    const problem = await bootProblem(ReportsModule);
    expect(problem).toContain(
      "ReportService (ReportsModule) depends on Database (constructor parameter #0 'database')",
    );
    expect(problem).toContain('provided by DatabaseModule but not exported to ReportsModule');
  });

  it('rejects a dependency that no module provides, naming the token and the module to add it to', async () => {
    const problem = await bootProblem(fixtureModule({ tools: [QueryTool] }, 'LonelyModule'));
    expect(problem).toContain("QueryTool (LonelyModule) depends on Database (constructor parameter #0 'database')");
    expect(problem).toContain("which no module provides. Add it to LonelyModule's providers.");
  });

  it('names a symbol token by its description', async () => {
    const CLOCK = createToken<() => number>('Clock');
    @Tool('clock_read', { description: 'Reads the clock.', input: NoInput })
    class ClockTool {
      constructor(@Inject(CLOCK) private readonly clock: () => number) {}
      handle() {
        return String(this.clock());
      }
    }
    const problem = await bootProblem(fixtureModule({ tools: [ClockTool] }, 'ClockModule'));
    expect(problem).toContain("ClockTool (ClockModule) depends on Clock (constructor parameter #0 'clock')");
    expect(problem).toContain('which no module provides');
  });

  it('serves a provider exported by an imported module', async () => {
    @Module({ providers: [Database], exports: [Database] })
    class DatabaseModule {}
    const app = await bootApp(fixtureModule({ imports: [DatabaseModule], tools: [QueryTool] }));
    const result = await app.callTool('db_query');
    expect(result.structuredContent).toEqual({ text: 'rows from the database' });
  });
});

describe('re-exported modules', () => {
  it('makes an imported module re-exported by another visible to the importer of the re-exporter', async () => {
    @Module({ providers: [Database], exports: [Database] })
    class DatabaseModule {}
    @Module({ imports: [DatabaseModule], exports: [DatabaseModule] })
    class CoreModule {}

    const app = await bootApp(fixtureModule({ imports: [CoreModule], tools: [QueryTool] }, 'AppModule'));
    const result = await app.callTool('db_query');
    expect(result.structuredContent).toEqual({ text: 'rows from the database' });
  });

  it('does not pass an import through a module that imports it without re-exporting it', async () => {
    @Module({ providers: [Database], exports: [Database] })
    class DatabaseModule {}
    @Module({ imports: [DatabaseModule] })
    class CoreModule {}

    const problem = await bootProblem(fixtureModule({ imports: [CoreModule], tools: [QueryTool] }, 'AppModule'));
    expect(problem).toContain('QueryTool (AppModule) depends on Database');
    expect(problem).toContain('provided by DatabaseModule but not exported to AppModule');
  });

  it('rejects exporting something a module neither provides nor imports', async () => {
    const problem = await bootProblem(fixtureModule({ exports: [Database] }, 'BoastingModule'));
    expect(problem).toBe('BoastingModule exports Database, which it neither provides nor imports.');
  });
});

describe('dynamic modules', () => {
  const GREETING = createToken<string>('GREETING');

  @Module({})
  class GreetingModule {
    static forRoot(options: { readonly greeting: string }): DynamicModule {
      return {
        module: GreetingModule,
        providers: [{ provide: GREETING, useValue: options.greeting }],
        exports: [GREETING],
      };
    }
  }

  const Name = z.object({ name: z.string().describe('Who to greet') });

  @Tool('greet', { description: 'Greets someone by name.', input: Name, output: Reply })
  class GreetTool {
    constructor(@Inject(GREETING) private readonly greeting: string) {}
    handle(input: z.output<typeof Name>) {
      return { text: `${this.greeting}, ${input.name}!` };
    }
  }

  it('provides the value its forRoot options configured to a tool of the importing module', async () => {
    const app = await bootApp(
      fixtureModule({ imports: [GreetingModule.forRoot({ greeting: 'Hello' })], tools: [GreetTool] }),
    );
    const result = await app.callTool('greet', { name: 'Ada' });
    expect(result.structuredContent).toEqual({ text: 'Hello, Ada!' });
  });

  it('keeps each app on its own configuration', async () => {
    const english = await bootApp(
      fixtureModule({ imports: [GreetingModule.forRoot({ greeting: 'Hello' })], tools: [GreetTool] }),
    );
    const french = await bootApp(
      fixtureModule({ imports: [GreetingModule.forRoot({ greeting: 'Bonjour' })], tools: [GreetTool] }),
    );
    expect((await french.callTool('greet', { name: 'Ada' })).structuredContent).toEqual({ text: 'Bonjour, Ada!' });
    expect((await english.callTool('greet', { name: 'Ada' })).structuredContent).toEqual({ text: 'Hello, Ada!' });
  });
});
