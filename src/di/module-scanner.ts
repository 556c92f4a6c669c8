// Walks the module graph from the root module once at boot, normalising every provider and export, so the checks
// and the container work on plain records instead of decorator metadata.
import { INJECTABLE_METADATA, MODULE_METADATA, readMetadata } from '../../decorators/metadata-keys.js';
import type { SkillDeclaration } from '../../decorators/skill.js';
import type {
  Constructor,
  DynamicModule,
  FactoryProvider,
  InjectionToken,
  ModuleMetadata,
  ModuleRef,
  Provider,
  ProviderScope,
} from '../../decorators/types.js';
import type { UiResourceDeclaration } from '../../decorators/ui-resource.js';
import { KilnBootError } from '../errors/boot-error.js';

export type NormalizedProvider =
  | {
      readonly kind: 'class';
      readonly token: InjectionToken;
      readonly useClass: Constructor;
      readonly scope: ProviderScope;
    }
  | { readonly kind: 'value'; readonly token: InjectionToken; readonly useValue: unknown; readonly scope: 'singleton' }
  | {
      readonly kind: 'factory';
      readonly token: InjectionToken;
      readonly useFactory: FactoryProvider['useFactory'];
      readonly inject: readonly InjectionToken[];
      readonly scope: ProviderScope;
    };

export interface ModuleRecord {
  readonly name: string;
  readonly metatype: Constructor;
  readonly providers: NormalizedProvider[];
  readonly imports: ModuleRecord[];
  /** Tokens of this module's own providers that it exports. */
  readonly exportedTokens: InjectionToken[];
  /** Imported modules this module re-exports. */
  readonly reexports: ModuleRecord[];
  readonly tools: Constructor[];
  readonly resources: Constructor[];
  readonly prompts: Constructor[];
  readonly skills: SkillDeclaration[];
  readonly uiResources: UiResourceDeclaration[];
}

export function isDynamicModule(ref: unknown): ref is DynamicModule {
  return typeof ref === 'object' && ref !== null && typeof (ref as DynamicModule).module === 'function';
}

export function normalizeProvider(provider: Provider): NormalizedProvider {
  if (typeof provider === 'function') {
    const scope = readMetadata<{ scope: ProviderScope }>(INJECTABLE_METADATA, provider)?.scope ?? 'singleton';
    return { kind: 'class', token: provider, useClass: provider, scope };
  }
  if ('useValue' in provider)
    return { kind: 'value', token: provider.provide, useValue: provider.useValue, scope: 'singleton' };
  if ('useClass' in provider) {
    const declared = readMetadata<{ scope: ProviderScope }>(INJECTABLE_METADATA, provider.useClass)?.scope;
    return {
      kind: 'class',
      token: provider.provide,
      useClass: provider.useClass,
      scope: provider.scope ?? declared ?? 'singleton',
    };
  }
  if ('useFactory' in provider) {
    return {
      kind: 'factory',
      token: provider.provide,
      useFactory: provider.useFactory,
      inject: provider.inject ?? [],
      scope: provider.scope ?? 'singleton',
    };
  }
  throw new KilnBootError(
    `Unrecognised provider ${JSON.stringify(provider)}: use a class, useClass, useValue or useFactory.`,
  );
}

/** Scans the graph; returns every module once, dependencies before dependents. */
export function scanModules(root: ModuleRef): ModuleRecord[] {
  const records = new Map<unknown, ModuleRecord>();
  const ordered: ModuleRecord[] = [];

  const visit = (ref: ModuleRef, path: readonly string[]): ModuleRecord => {
    const key = isDynamicModule(ref) ? ref : ref;
    const existing = records.get(key);
    if (existing) return existing;
    const metatype = isDynamicModule(ref) ? ref.module : ref;
    if (typeof metatype !== 'function') {
      throw new KilnBootError(
        `${path.join(' → ') || 'createApp'} imports ${String(ref)}, which is not a module class.`,
      );
    }
    const declared = readMetadata<ModuleMetadata>(MODULE_METADATA, metatype);
    if (!declared) {
      throw new KilnBootError(
        `${metatype.name} is imported${path.length ? ` by ${path.at(-1)}` : ''} but has no @Module() decorator.`,
      );
    }
    const dynamic: ModuleMetadata = isDynamicModule(ref) ? ref : {};
    const merged = mergeMetadata(declared, dynamic);
    const record: ModuleRecord = {
      name: metatype.name,
      metatype,
      providers: merged.providers.map(normalizeProvider),
      imports: [],
      exportedTokens: [],
      reexports: [],
      tools: [...merged.tools],
      resources: [...merged.resources],
      prompts: [...merged.prompts],
      skills: [...merged.skills],
      uiResources: [...merged.uiResources],
    };
    records.set(key, record);
    for (const imported of merged.imports) record.imports.push(visit(imported, [...path, record.name]));
    resolveExports(record, merged.exports);
    ordered.push(record);
    return record;
  };

  visit(root, []);
  return ordered;
}

function mergeMetadata(a: ModuleMetadata, b: ModuleMetadata) {
  return {
    imports: [...(a.imports ?? []), ...(b.imports ?? [])],
    providers: [...(a.providers ?? []), ...(b.providers ?? [])],
    exports: [...(a.exports ?? []), ...(b.exports ?? [])],
    tools: [...(a.tools ?? []), ...(b.tools ?? [])],
    resources: [...(a.resources ?? []), ...(b.resources ?? [])],
    prompts: [...(a.prompts ?? []), ...(b.prompts ?? [])],
    skills: [...(a.skills ?? []), ...(b.skills ?? [])],
    uiResources: [...(a.uiResources ?? []), ...(b.uiResources ?? [])],
  };
}

function resolveExports(record: ModuleRecord, exports: readonly (InjectionToken | ModuleRef)[]): void {
  const own = new Set(record.providers.map((p) => p.token));
  for (const exported of exports) {
    const imported = record.imports.find(
      (m) => m.metatype === (isDynamicModule(exported) ? exported.module : exported),
    );
    if (imported) record.reexports.push(imported);
    else if (own.has(exported as InjectionToken)) record.exportedTokens.push(exported as InjectionToken);
    else {
      const name = isDynamicModule(exported) ? exported.module.name : describe(exported);
      throw new KilnBootError(`${record.name} exports ${name}, which it neither provides nor imports.`);
    }
  }
}

function describe(token: unknown): string {
  if (typeof token === 'function') return token.name;
  if (typeof token === 'symbol') return token.description ?? String(token);
  return String(token);
}
