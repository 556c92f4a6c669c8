// The app-owned root container: every provider registered once, singletons built at boot in dependency order
// (awaiting async factories), request-scoped providers left for each request's child container.

import type { DependencyContainer } from 'tsyringe';
import { container as globalContainer, injectable, instancePerContainerCachingFactory, Lifecycle } from 'tsyringe';
import type { Constructor, InjectionToken } from '../../decorators/types.js';
import { KilnBootError } from '../errors/boot-error.js';
import type { ConstructorDependency } from './constructor-dependencies.js';
import type { DependencyGraph, ProviderEntry } from './dependency-graph.js';
import { tokenName } from './tokens.js';

type TsyringeToken = Parameters<DependencyContainer['resolve']>[0];

// tsyringe exports only its global instance; its class builds a parentless container, so nothing an app
// registers leaks into, or resolves from, the global one.
const ContainerClass = globalContainer.constructor as new () => DependencyContainer;

export async function createRootContainer(graph: DependencyGraph): Promise<DependencyContainer> {
  const root = new ContainerClass();

  for (const entry of graph.providers.values()) registerProvider(root, entry);
  for (const [consumer, dependencies] of graph.consumers) {
    describeToTsyringe(consumer, dependencies);
    root.register(consumer as TsyringeToken, { useClass: consumer as new () => unknown });
  }
  for (const entry of singletonsInDependencyOrder(graph)) await buildSingleton(root, entry);
  return root;
}

/** Hands tsyringe the tokens Kiln resolved, so it never guesses from emitted types on its own. */
function describeToTsyringe(ctor: Constructor, dependencies: readonly ConstructorDependency[]): void {
  const tokens = Object.fromEntries(dependencies.map((d) => [d.index, d.token]));
  Reflect.defineMetadata('injectionTokens', tokens, ctor);
  injectable()(ctor as new () => unknown);
}

function registerProvider(root: DependencyContainer, entry: ProviderEntry): void {
  const { provider } = entry;
  const token = provider.token as TsyringeToken;
  if (provider.kind === 'value') {
    root.register(token, { useValue: provider.useValue });
  } else if (provider.kind === 'class') {
    describeToTsyringe(provider.useClass, entry.dependencies);
    const lifecycle = provider.scope === 'request' ? Lifecycle.ContainerScoped : Lifecycle.Singleton;
    root.register(token, { useClass: provider.useClass as new () => unknown }, { lifecycle });
  } else if (provider.scope === 'request') {
    root.register(token, {
      useFactory: instancePerContainerCachingFactory((scope) => {
        const value = provider.useFactory(...provider.inject.map((t) => scope.resolve(t as TsyringeToken)));
        if (value instanceof Promise) {
          throw new Error(
            `Request-scoped factory for ${tokenName(provider.token)} returned a Promise; it must be synchronous.`,
          );
        }
        disposeWith(scope, value);
        return value;
      }),
    });
  }
  // Singleton factories are registered once their value exists (buildSingleton), since they may be async.
}

async function buildSingleton(root: DependencyContainer, entry: ProviderEntry): Promise<void> {
  const { provider } = entry;
  const token = provider.token as TsyringeToken;
  try {
    if (provider.kind === 'factory') {
      const args = provider.inject.map((t) => root.resolve(t as TsyringeToken));
      const value: unknown = await provider.useFactory(...args);
      disposeWith(root, value);
      root.register(token, { useValue: value });
    } else {
      root.resolve(token);
    }
  } catch (error) {
    if (error instanceof KilnBootError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new KilnBootError(`Could not build singleton ${tokenName(provider.token)} (${entry.module.name}): ${reason}`);
  }
}

/**
 * Has `scope` dispose a factory-built value when it is disposed. tsyringe disposes only instances it constructed
 * itself, so a factory's Disposable (a client, a connection) would otherwise never be closed; resolving a
 * parameterless holder class makes tsyringe construct, and so track, something that forwards the call.
 */
function disposeWith(scope: DependencyContainer, value: unknown): void {
  const disposable = value as { dispose?: unknown } | null | undefined;
  if (typeof disposable?.dispose !== 'function') return;
  const dispose = disposable.dispose.bind(value) as () => unknown;
  scope.resolve(
    class FactoryValueDisposer {
      dispose() {
        return dispose();
      }
    },
  );
}

/** Singletons ordered so each is built after what it depends on; a cycle among singletons stops boot. */
function singletonsInDependencyOrder(graph: DependencyGraph): ProviderEntry[] {
  const ordered: ProviderEntry[] = [];
  const state = new Map<InjectionToken, 'visiting' | 'done'>();
  const visit = (entry: ProviderEntry, path: InjectionToken[]) => {
    const token = entry.provider.token;
    if (state.get(token) === 'done') return;
    if (state.get(token) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(token)), token].map(tokenName).join(' → ');
      throw new KilnBootError(`Circular dependency between providers: ${cycle}.`);
    }
    state.set(token, 'visiting');
    for (const dependency of entry.dependencies) {
      const next = graph.providers.get(dependency.token);
      if (next && next.provider.scope === 'singleton') visit(next, [...path, token]);
    }
    state.set(token, 'done');
    if (entry.provider.scope === 'singleton') ordered.push(entry);
  };
  for (const entry of graph.providers.values()) visit(entry, []);
  return ordered;
}
