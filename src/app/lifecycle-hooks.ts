// Module lifecycle hooks, NestJS-style: a singleton provider that implements one is called at boot (modules in
// dependency order: what a module imports is initialised before it) and at close (the reverse order), each hook
// awaited before the next.
import type { DependencyContainer } from 'tsyringe';
import type { ProviderEntry } from '../di/dependency-graph.js';
import type { ModuleRecord } from '../di/module-scanner.js';

/** Called once the root container has built every singleton: open pools, warm caches. */
export interface OnModuleInit {
  onModuleInit(): void | Promise<void>;
}
/** Called after every module's onModuleInit, before the app serves. */
export interface OnApplicationBootstrap {
  onApplicationBootstrap(): void | Promise<void>;
}
/** Called at close, once serving stopped and requests in flight drained: stop background work. */
export interface OnModuleDestroy {
  onModuleDestroy(): void | Promise<void>;
}
/** Called last at close, after every onModuleDestroy: close connections. `signal` is what ended the process, if any. */
export interface OnApplicationShutdown {
  onApplicationShutdown(signal?: string): void | Promise<void>;
}

type HookName = 'onModuleInit' | 'onApplicationBootstrap' | 'onModuleDestroy' | 'onApplicationShutdown';

/** The singleton instances of each module that implement any hook, modules in dependency order. */
export class LifecycleHooks {
  private constructor(private readonly instances: readonly (readonly [string, object])[]) {}

  static collect(
    modules: readonly ModuleRecord[],
    providers: ReadonlyMap<unknown, ProviderEntry>,
    container: DependencyContainer,
  ): LifecycleHooks {
    const seen = new Set<object>();
    const instances: (readonly [string, object])[] = [];
    for (const module of modules) {
      for (const { token } of module.providers) {
        const entry = providers.get(token);
        if (entry?.module !== module || entry.provider.scope !== 'singleton') continue;
        const instance: unknown = container.resolve(token as never);
        if (typeof instance !== 'object' || instance === null || seen.has(instance)) continue;
        seen.add(instance);
        if (HOOKS.some((hook) => typeof (instance as Record<string, unknown>)[hook] === 'function')) {
          instances.push([module.name, instance]);
        }
      }
    }
    return new LifecycleHooks(instances);
  }

  async boot(): Promise<void> {
    await this.call('onModuleInit', this.instances);
    await this.call('onApplicationBootstrap', this.instances);
  }

  async shutdown(signal?: string): Promise<void> {
    const reversed = [...this.instances].reverse();
    await this.call('onModuleDestroy', reversed);
    await this.call('onApplicationShutdown', reversed, signal);
  }

  private async call(hook: HookName, instances: readonly (readonly [string, object])[], signal?: string) {
    for (const [, instance] of instances) {
      const method = (instance as Record<string, unknown>)[hook];
      if (typeof method === 'function') await method.call(instance, signal);
    }
  }
}

const HOOKS: readonly HookName[] = [
  'onModuleInit',
  'onApplicationBootstrap',
  'onModuleDestroy',
  'onApplicationShutdown',
];
