// Boot-time checks of the module graph: every dependency is visible to the module that asks for it
// (encapsulation), singletons never depend on request-scoped tokens, and every token is provided once.
import type { Constructor, InjectionToken, ProviderScope } from '../../decorators/types.js';
import { type ConstructorDependency, readConstructorDependencies } from './constructor-dependencies.js';
import type { ModuleRecord, NormalizedProvider } from './module-scanner.js';
import { FRAMEWORK_TOKENS, REQUEST_SCOPED_FRAMEWORK_TOKENS, tokenName } from './tokens.js';

export interface ProviderEntry {
  readonly provider: NormalizedProvider;
  readonly module: ModuleRecord;
  /** Constructor dependencies of a class provider, or the `inject` list of a factory. */
  readonly dependencies: readonly ConstructorDependency[];
}

export interface DependencyGraph {
  readonly providers: ReadonlyMap<InjectionToken, ProviderEntry>;
  /** Constructor dependencies of every tool, resource and prompt class. */
  readonly consumers: ReadonlyMap<Constructor, readonly ConstructorDependency[]>;
}

/**
 * Builds the graph and collects every problem; the caller throws them together. `parts` are further classes built
 * per request like definitions (guards, interceptors, filters), checked against the module that applies them; one
 * that is also a provider is built through its provider instead.
 */
export function buildDependencyGraph(
  modules: readonly ModuleRecord[],
  problems: string[],
  parts: ReadonlyMap<ModuleRecord, readonly Constructor[]> = new Map(),
): DependencyGraph {
  const providers = new Map<InjectionToken, ProviderEntry>();
  const consumers = new Map<Constructor, readonly ConstructorDependency[]>();

  for (const module of modules) {
    for (const provider of module.providers) {
      const existing = providers.get(provider.token);
      if (existing) {
        problems.push(
          `${tokenName(provider.token)} is provided by both ${existing.module.name} and ${module.name}: provide it in one ` +
            'module and export it to the others.',
        );
        continue;
      }
      providers.set(provider.token, { provider, module, dependencies: providerDependencies(provider, problems) });
    }
  }

  for (const module of modules) {
    const visible = visibleTokens(module);
    for (const entry of providers.values()) {
      if (entry.module !== module) continue;
      checkVisibility(
        `${tokenName(entry.provider.token)} (${module.name})`,
        entry.dependencies,
        visible,
        providers,
        module,
        problems,
      );
      if (entry.provider.scope === 'singleton') checkSingletonScope(entry, providers, problems);
    }
    for (const consumer of [...module.tools, ...module.resources, ...module.prompts]) {
      if (consumers.has(consumer)) continue;
      const result = readConstructorDependencies(consumer);
      if (!result.ok) {
        problems.push(...result.problems);
        continue;
      }
      consumers.set(consumer, result.dependencies);
      checkVisibility(`${consumer.name} (${module.name})`, result.dependencies, visible, providers, module, problems);
    }
    // A part applied in several modules is checked against each, as each applies it.
    for (const part of parts.get(module) ?? []) {
      if (providers.has(part)) continue;
      const known = consumers.get(part);
      const result = known ? { ok: true as const, dependencies: known } : readConstructorDependencies(part);
      if (!result.ok) {
        problems.push(...result.problems);
        consumers.set(part, []); // reported once, however many modules apply it
        continue;
      }
      consumers.set(part, result.dependencies);
      checkVisibility(`${part.name} (${module.name})`, result.dependencies, visible, providers, module, problems);
    }
  }
  return { providers, consumers };
}

export function scopeOf(token: InjectionToken, providers: ReadonlyMap<InjectionToken, ProviderEntry>): ProviderScope {
  if (REQUEST_SCOPED_FRAMEWORK_TOKENS.has(token)) return 'request';
  return providers.get(token)?.provider.scope ?? 'singleton';
}

function providerDependencies(provider: NormalizedProvider, problems: string[]): readonly ConstructorDependency[] {
  if (provider.kind === 'value') return [];
  if (provider.kind === 'factory')
    return provider.inject.map((token, index) => ({ index, name: `inject[${index}]`, token }));
  const result = readConstructorDependencies(provider.useClass);
  if (result.ok) return result.dependencies;
  problems.push(...result.problems);
  return [];
}

/** Own providers, framework tokens, and what imported modules export (following re-exports). */
function visibleTokens(module: ModuleRecord): ReadonlySet<InjectionToken> {
  const visible = new Set<InjectionToken>([...FRAMEWORK_TOKENS] as InjectionToken[]);
  for (const provider of module.providers) visible.add(provider.token);
  const seen = new Set<ModuleRecord>();
  const addExports = (imported: ModuleRecord) => {
    if (seen.has(imported)) return;
    seen.add(imported);
    for (const token of imported.exportedTokens) visible.add(token);
    for (const reexported of imported.reexports) addExports(reexported);
  };
  for (const imported of module.imports) addExports(imported);
  return visible;
}

function checkVisibility(
  owner: string,
  dependencies: readonly ConstructorDependency[],
  visible: ReadonlySet<InjectionToken>,
  providers: ReadonlyMap<InjectionToken, ProviderEntry>,
  module: ModuleRecord,
  problems: string[],
): void {
  for (const dependency of dependencies) {
    if (visible.has(dependency.token)) continue;
    const where = `${owner} depends on ${tokenName(dependency.token)} (${describeDependency(dependency)})`;
    const provider = providers.get(dependency.token);
    if (!provider) {
      problems.push(`${where}, which no module provides. Add it to ${module.name}'s providers.`);
    } else {
      problems.push(
        `${where}, which ${module.name} cannot see: it is provided by ${provider.module.name} but not exported to ` +
          `${module.name}. Add it to ${provider.module.name}'s exports and import ${provider.module.name} in ${module.name}.`,
      );
    }
  }
}

function checkSingletonScope(
  entry: ProviderEntry,
  providers: ReadonlyMap<InjectionToken, ProviderEntry>,
  problems: string[],
): void {
  for (const dependency of entry.dependencies) {
    if (scopeOf(dependency.token, providers) !== 'request') continue;
    problems.push(
      `Singleton ${tokenName(entry.provider.token)} (${entry.module.name}) depends on request-scoped ` +
        `${tokenName(dependency.token)} through ${describeDependency(dependency)}. ` +
        `Mark ${tokenName(entry.provider.token)} @Injectable({ scope: 'request' }), or pass the request's values as ` +
        'method arguments instead.',
    );
  }
}

function describeDependency(dependency: ConstructorDependency): string {
  return dependency.source === 'factory'
    ? `factory argument ${dependency.name}`
    : `constructor parameter #${dependency.index} '${dependency.name}'`;
}
