// Types shared by the authoring decorators: error contracts, enrichment shapes, providers and module metadata.
import type { z } from 'zod';
import type { SkillDeclaration } from './skill.js';
import type { UiResourceDeclaration } from './ui-resource.js';

export type Constructor<T = unknown> = new (...args: never[]) => T;

/** One declared failure mode of a tool. `recovery` is the agent's next move (at least five words). */
export interface ErrorContractEntry {
  readonly reason: string;
  readonly code: number;
  readonly when: string;
  readonly recovery: string;
  readonly retryable?: boolean;
}

export type ErrorContract = readonly ErrorContractEntry[];

/** The union of reasons a contract declares: `ReasonOf<typeof NotFound>` is `'no_match'`. */
export type ReasonOf<E extends ErrorContract> = E[number]['reason'];

export type EnrichmentShape = Record<string, z.ZodType>;

/** Per-field rendering of the enrichment trailer in `content[]`. */
export interface EnrichmentTrailerField<V = unknown> {
  readonly label?: string;
  readonly render?: (value: V) => string;
}

export type EnrichmentTrailer<S extends EnrichmentShape> = {
  readonly [K in keyof S]?: EnrichmentTrailerField<z.output<S[K]>>;
};

export interface DisabledMetadata {
  readonly reason: string;
  readonly hint?: string;
  readonly since?: string;
}

/** Something the container can resolve: a class, a symbol from `createToken`, or a string. */
export type InjectionToken<T = unknown> = Constructor<T> | Token<T> | string | (abstract new (...args: never[]) => T);

/** A typed symbol token: `const CLOCK = createToken<Clock>('Clock')`. */
export type Token<T> = symbol & { readonly __kilnTokenType?: T };

export type ProviderScope = 'singleton' | 'request';

export interface ClassProvider<T = unknown> {
  readonly provide: InjectionToken<T>;
  readonly useClass: Constructor<T>;
  readonly scope?: ProviderScope;
}
export interface ValueProvider<T = unknown> {
  readonly provide: InjectionToken<T>;
  readonly useValue: T;
}
export interface FactoryProvider<T = unknown> {
  readonly provide: InjectionToken<T>;
  // biome-ignore lint/suspicious/noExplicitAny: factory arguments are resolved from `inject` and typed by the author.
  readonly useFactory: (...deps: any[]) => T | Promise<T>;
  readonly inject?: readonly InjectionToken[];
  readonly scope?: ProviderScope;
}

export type Provider = Constructor | ClassProvider | ValueProvider | FactoryProvider;

export interface ModuleMetadata {
  readonly imports?: readonly ModuleRef[];
  readonly providers?: readonly Provider[];
  readonly exports?: readonly (InjectionToken | ModuleRef)[];
  readonly tools?: readonly Constructor[];
  readonly resources?: readonly Constructor[];
  readonly prompts?: readonly Constructor[];
  /** Skills served through the Skills extension (SEP-2640): `skill(...)` and `skillsFromFolder(...)`. */
  readonly skills?: readonly SkillDeclaration[];
  /** MCP Apps views (`ui://` resources) this module's tools render with: `uiResource(...)`. */
  readonly uiResources?: readonly UiResourceDeclaration[];
}

/** What `SomeModule.forRoot(opts)` returns: the module class plus metadata added for this configuration. */
export interface DynamicModule extends ModuleMetadata {
  readonly module: Constructor;
}

export type ModuleRef = Constructor | DynamicModule;
