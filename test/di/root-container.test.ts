// The app's root container: singletons built once, at boot, in dependency order (async factories awaited), a
// cycle among them stops boot, and the container is the app's own, never tsyringe's global one.
import { createToken, Inject, Injectable, LOGGER, Module, Tool } from 'mcp-kiln';
import { container as globalContainer } from 'tsyringe';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, bootProblem, closeBootedApps, fixtureModule } from './boot-app.js';

afterEach(closeBootedApps);

const NoInput = z.object({});

describe('singletons', () => {
  function catalogFixture() {
    const events: string[] = [];
    @Injectable()
    class Catalog {
      readonly id = Math.random();
      constructor() {
        events.push('Catalog built');
      }
    }
    @Injectable()
    class PriceList {
      constructor(readonly catalog: Catalog) {
        events.push('PriceList built');
      }
    }
    @Injectable()
    class Unused {
      constructor() {
        events.push('Unused built');
      }
    }
    @Tool('catalog_id', { description: 'Reports the catalog instance.', input: NoInput })
    class CatalogIdTool {
      constructor(
        private readonly catalog: Catalog,
        private readonly prices: PriceList,
      ) {}
      handle() {
        events.push('handled');
        return JSON.stringify([this.catalog.id, this.prices.catalog.id]);
      }
    }
    // PriceList is listed first so the container must order construction by dependency, not declaration.
    const module = fixtureModule({ providers: [PriceList, Catalog, Unused], tools: [CatalogIdTool] });
    return { module, events };
  }

  it('builds every singleton exactly once, at boot, dependencies first, before the first request', async () => {
    const { module, events } = catalogFixture();
    const app = await bootApp(module);
    expect(events).toEqual(['Catalog built', 'PriceList built', 'Unused built']);

    await app.callTool('catalog_id');
    await app.callTool('catalog_id');
    expect(events.filter((e) => e.endsWith('built'))).toHaveLength(3);
    expect(events.slice(3)).toEqual(['handled', 'handled']);
  });

  it('hands every consumer and every request the same instance', async () => {
    const app = await bootApp(catalogFixture().module);
    const read = async () => {
      const [block] = (await app.callTool('catalog_id')).content as { text: string }[];
      return JSON.parse(block?.text ?? '[]') as number[];
    };
    const [first, second] = [await read(), await read()];
    expect(new Set([...(first ?? []), ...(second ?? [])]).size).toBe(1);
  });

  it('awaits an async factory at boot and injects its value, not a Promise', async () => {
    const SETTINGS = createToken<{ region: string }>('SETTINGS');
    let resolvedAtBoot = false;
    @Injectable()
    class RegionService {
      constructor(@Inject(SETTINGS) readonly settings: { region: string }) {}
    }
    @Tool('region', { description: 'Reports the configured region.', input: NoInput })
    class RegionTool {
      constructor(
        @Inject(SETTINGS) private readonly settings: { region: string },
        private readonly service: RegionService,
      ) {}
      handle() {
        return `${this.settings.region}/${this.service.settings.region}`;
      }
    }
    const app = await bootApp(
      fixtureModule({
        providers: [
          RegionService,
          {
            provide: SETTINGS,
            useFactory: async () => {
              await new Promise((resolve) => setTimeout(resolve, 10));
              resolvedAtBoot = true;
              return { region: 'eu-west' };
            },
          },
        ],
        tools: [RegionTool],
      }),
    );
    expect(resolvedAtBoot).toBe(true);
    expect((await app.callTool('region')).content).toEqual([{ type: 'text', text: 'eu-west/eu-west' }]);
  });

  it('stops boot when a singleton factory rejects, naming the provider and its module', async () => {
    const DATABASE = createToken('DATABASE');
    const problem = await bootProblem(
      fixtureModule(
        {
          providers: [
            {
              provide: DATABASE,
              useFactory: async () => {
                throw new Error('connection refused');
              },
            },
          ],
        },
        'StorageModule',
      ),
    );
    expect(problem).toBe('Could not build singleton DATABASE (StorageModule): connection refused');
  });

  it('disposes a Disposable singleton built by a factory when the app closes', async () => {
    const CLIENT = createToken('CLIENT');
    const events: string[] = [];
    const app = await bootApp(
      fixtureModule({
        providers: [{ provide: CLIENT, useFactory: async () => ({ dispose: () => events.push('client closed') }) }],
      }),
    );
    expect(events).toEqual([]);
    await app.close();
    expect(events).toEqual(['client closed']);
  });
});

describe('circular dependencies', () => {
  it('stops boot with the cycle spelled out', async () => {
    const FIRST = createToken('FIRST');
    const SECOND = createToken('SECOND');
    const THIRD = createToken('THIRD');
    @Injectable()
    class First {
      constructor(@Inject(SECOND) readonly second: unknown) {}
    }
    @Injectable()
    class Second {
      constructor(@Inject(THIRD) readonly third: unknown) {}
    }
    const problem = await bootProblem(
      fixtureModule({
        providers: [
          { provide: FIRST, useClass: First },
          { provide: SECOND, useClass: Second },
          { provide: THIRD, useFactory: (first: unknown) => first, inject: [FIRST] },
        ],
      }),
    );
    expect(problem).toBe('Circular dependency between providers: FIRST → SECOND → THIRD → FIRST.');
  });
});

describe('the root container is the app’s own', () => {
  it('does not see what is registered in tsyringe’s global container', async () => {
    const GLOBAL_ONLY = createToken<string>('GLOBAL_ONLY');
    globalContainer.register(GLOBAL_ONLY, { useValue: 'from the global container' });
    try {
      @Injectable()
      class Quiet {}
      const app = await bootApp(fixtureModule({ providers: [Quiet] }));
      expect(app.runtime.container).not.toBe(globalContainer);
      expect(app.runtime.container.isRegistered(GLOBAL_ONLY, true)).toBe(false);
      expect(() => app.runtime.container.resolve(GLOBAL_ONLY)).toThrow(/unregistered dependency token/);

      @Tool('global_reader', { description: 'Reads a global registration.', input: NoInput })
      class GlobalReaderTool {
        constructor(@Inject(GLOBAL_ONLY) readonly value: string) {}
        handle() {
          return this.value;
        }
      }
      const problem = await bootProblem(fixtureModule({ tools: [GlobalReaderTool] }, 'ReaderModule'));
      expect(problem).toContain('depends on GLOBAL_ONLY');
      expect(problem).toContain('which no module provides');
    } finally {
      globalContainer.reset();
    }
  });

  it('registers nothing the app provides in the global container', async () => {
    const PLAN = createToken<string>('PLAN');
    @Injectable()
    class Billing {}
    @Module({ providers: [Billing, { provide: PLAN, useValue: 'pro' }], exports: [Billing] })
    class BillingModule {}

    const app = await bootApp(BillingModule);
    expect(app.runtime.container.resolve(PLAN)).toBe('pro');
    expect(app.runtime.container.resolve(Billing)).toBeInstanceOf(Billing);
    for (const token of [PLAN, Billing, LOGGER]) expect(globalContainer.isRegistered(token, true)).toBe(false);
  });

  it('keeps two apps’ singletons apart', async () => {
    @Injectable()
    class Counter {}
    const module = fixtureModule({ providers: [Counter] });
    const [one, two] = [await bootApp(module), await bootApp(module)];
    expect(one.runtime.container.resolve(Counter)).not.toBe(two.runtime.container.resolve(Counter));
  });
});
