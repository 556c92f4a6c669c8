// createTestingModule: the app's real module wiring with chosen providers, guards, interceptors and filters replaced,
// NestJS-style. Overrides go through createApp's `overrides`, so visibility, scope and boot checks apply to the
// replacement as in production.
import { Module } from '../../decorators/module.js';
import type { Constructor, InjectionToken, ModuleRef, Provider } from '../../decorators/types.js';
import type { KilnExceptionFilter } from '../../decorators/use-filters.js';
import type { KilnGuard } from '../../decorators/use-guards.js';
import type { KilnInterceptor } from '../../decorators/use-interceptors.js';
import type { CreateAppOptions } from '../app/app-options.js';
import type { KilnApp } from '../app/kiln-app.js';
import { createApp } from '../bootstrap/create-app.js';
import type { AuthContext } from '../context/request-context.js';
import { tokenName } from '../di/tokens.js';
import { KilnBootError } from '../errors/boot-error.js';
import { TestingApp } from './testing-app.js';

export interface TestingModuleMetadata {
  readonly imports: readonly ModuleRef[];
  readonly providers?: readonly Provider[];
}

/** createApp's options (identity, input switches, cache hints, session mode, drain), plus who direct calls run as. */
export interface TestingCompileOptions extends Omit<CreateAppOptions, 'env' | 'overrides'> {
  /** Merged over `{ MCP_LOG_LEVEL: 'error' }`; process.env is not read, so tests do not depend on the shell. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Tenant of direct calls (connected clients run as 'default'). */
  readonly tenantId?: string;
  readonly auth?: AuthContext;
}

export interface FactoryOverride<T> {
  // biome-ignore lint/suspicious/noExplicitAny: arguments are resolved from `inject` and typed by the test author.
  readonly factory: (...deps: any[]) => T | Promise<T>;
  readonly inject?: readonly InjectionToken[];
}

/** The second half of `overrideProvider(token)`: what the token resolves to instead. */
export interface OverrideBy<T> {
  /** A fake only needs the members the code under test calls; the rest of T's public surface may be left out. */
  useValue(value: Partial<T>): TestingModuleBuilder;
  useClass(implementation: Constructor<T>): TestingModuleBuilder;
  useFactory(factory: FactoryOverride<T>): TestingModuleBuilder;
}

@Module({})
class TestingRootModule {}

type OverrideMethod = 'overrideProvider' | 'overrideGuard' | 'overrideInterceptor' | 'overrideFilter';

export class TestingModuleBuilder {
  private readonly overrides = new Map<InjectionToken, Provider>();
  private readonly overriddenBy = new Map<InjectionToken, OverrideMethod>();

  constructor(private readonly metadata: TestingModuleMetadata) {}

  overrideProvider<T>(token: InjectionToken<T>): OverrideBy<T> {
    return this.override(token, 'overrideProvider');
  }

  /** Replaces a guard wherever it applies (a class, a module, the app), whether or not a module provides it. */
  overrideGuard<T extends KilnGuard>(guard: Constructor<T>): OverrideBy<T> {
    return this.override(guard, 'overrideGuard');
  }

  overrideInterceptor<T extends KilnInterceptor>(interceptor: Constructor<T>): OverrideBy<T> {
    return this.override(interceptor, 'overrideInterceptor');
  }

  overrideFilter<T extends KilnExceptionFilter>(filter: Constructor<T>): OverrideBy<T> {
    return this.override(filter, 'overrideFilter');
  }

  private override<T>(token: InjectionToken<T>, method: OverrideMethod): OverrideBy<T> {
    this.overriddenBy.set(token, method);
    const replace = (provider: Provider) => {
      this.overrides.set(token, provider);
      return this;
    };
    return {
      useValue: (value) => replace({ provide: token, useValue: value }),
      useClass: (implementation) => replace({ provide: token, useClass: implementation }),
      useFactory: ({ factory, inject }) =>
        replace({ provide: token, useFactory: factory, ...(inject ? { inject } : {}) }),
    };
  }

  async compile(options: TestingCompileOptions = {}): Promise<TestingApp> {
    const root: ModuleRef = { module: TestingRootModule, ...this.metadata };
    const { tenantId, auth, env, ...appOptions } = options;
    const app = await createApp(root, {
      ...appOptions,
      serve: false,
      env: { MCP_LOG_LEVEL: 'error', ...env },
      overrides: this.overrides,
    });
    const unused = [...this.overrides.keys()].filter((token) => !isProvided(app, token));
    if (unused.length > 0) {
      await app.close();
      throw new KilnBootError(
        unused.map((token) => {
          const method = this.overriddenBy.get(token) ?? 'overrideProvider';
          return method === 'overrideProvider'
            ? `overrideProvider(${tokenName(token)}): no module imported by the testing module provides it, so there ` +
                'is nothing to replace. Import the module that provides it, or add it to providers.'
            : `${method}(${tokenName(token)}): no definition, module or compile option of the testing module ` +
                'applies it, so there is nothing to replace. Import the module whose definitions use it.';
        }),
      );
    }
    return new TestingApp(app, { tenantId, auth });
  }
}

/** True when the app's root container holds `token` (a framework or module provider). */
function isProvided(app: KilnApp, token: InjectionToken): boolean {
  return app.runtime.providerScopes.has(token);
}

export function createTestingModule(metadata: TestingModuleMetadata): TestingModuleBuilder {
  return new TestingModuleBuilder(metadata);
}
