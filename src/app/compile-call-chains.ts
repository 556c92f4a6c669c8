// Boot: the guards, interceptors and exception filters of every tool, resource and prompt, compiled once into its
// CallChain. Guards and interceptors run app-wide → module → class; filters are asked class → module → app-wide.
// A module's own @UseGuards/@UseInterceptors/@UseFilters apply to the definitions it declares, not to imported ones.
import {
  FILTERS_METADATA,
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  readMetadata,
} from '../../decorators/metadata-keys.js';
import type { Constructor, InjectionToken, Provider } from '../../decorators/types.js';
import { type ModuleRecord, normalizeProvider } from '../di/module-scanner.js';
import { tokenName } from '../di/tokens.js';
import type { CallChain } from '../pipeline/call-chain.js';
import type { CreateAppOptions } from './app-options.js';

type PartKind = keyof CallChain;

const PARTS: readonly { kind: PartKind; key: symbol; decorator: string; method: string }[] = [
  { kind: 'guards', key: GUARDS_METADATA, decorator: '@UseGuards', method: 'canActivate(ctx, call)' },
  {
    kind: 'interceptors',
    key: INTERCEPTORS_METADATA,
    decorator: '@UseInterceptors',
    method: 'intercept(ctx, call, next)',
  },
  { kind: 'filters', key: FILTERS_METADATA, decorator: '@UseFilters', method: 'catch(error, ctx, call)' },
];

/** One place's parts, checked: each a class with its kind's method. */
type PartLists = CallChain;

export interface CompiledCallChains {
  /** The chain of every definition class something applies to; the rest have none (EMPTY_CHAIN). */
  readonly chains: ReadonlyMap<Constructor, CallChain>;
  /** Every part, by the module whose visibility its constructor dependencies are checked against. */
  readonly parts: ReadonlyMap<ModuleRecord, readonly Constructor[]>;
}

/** `root` is the user's root module: app-wide parts see what it sees. */
export function compileCallChains(
  modules: readonly ModuleRecord[],
  root: ModuleRecord,
  options: Pick<CreateAppOptions, PartKind>,
  problems: string[],
): CompiledCallChains {
  const chains = new Map<Constructor, CallChain>();
  const parts = new Map<ModuleRecord, Set<Constructor>>();
  const use = (module: ModuleRecord, lists: PartLists) => {
    const used = parts.get(module) ?? new Set();
    for (const { kind } of PARTS) for (const part of lists[kind]) used.add(part);
    parts.set(module, used);
  };
  const appWide = partLists((kind) => options[kind], 'createApp', problems, true);
  use(root, appWide);
  const seen = new Set<Constructor>();
  for (const module of modules) {
    const moduleWide = partLists((kind) => metadataOf(kind, module.metatype), module.name, problems);
    use(module, moduleWide);
    for (const definition of [...module.tools, ...module.resources, ...module.prompts]) {
      if (seen.has(definition)) continue; // the first module that declares it applies its parts
      seen.add(definition);
      const own = partLists((kind) => metadataOf(kind, definition), definition.name, problems);
      use(module, own);
      const chain: CallChain = {
        guards: [...appWide.guards, ...moduleWide.guards, ...own.guards],
        interceptors: [...appWide.interceptors, ...moduleWide.interceptors, ...own.interceptors],
        filters: [...own.filters, ...moduleWide.filters, ...appWide.filters],
      };
      if (chain.guards.length + chain.interceptors.length + chain.filters.length > 0) {
        chains.set(definition, Object.freeze(chain));
      }
    }
  }
  return { chains, parts: new Map([...parts].map(([module, used]) => [module, [...used]])) };
}

/**
 * Provides each overridden part that no module provides (createTestingModule's overrideGuard and friends), in the
 * module that applies it, so the replacement is built like any provider and the chain resolves it by class.
 */
export function provideOverriddenParts(
  parts: ReadonlyMap<ModuleRecord, readonly Constructor[]>,
  modules: readonly ModuleRecord[],
  overrides: ReadonlyMap<InjectionToken, Provider>,
): void {
  const provided = new Set(modules.flatMap((module) => module.providers.map((provider) => provider.token)));
  for (const [module, used] of parts) {
    for (const part of used) {
      const replacement = overrides.get(part);
      if (!replacement || provided.has(part)) continue;
      module.providers.push({ ...normalizeProvider(replacement), token: part } as ModuleRecord['providers'][number]);
      provided.add(part);
    }
  }
}

function metadataOf(kind: PartKind, target: Constructor): readonly unknown[] | undefined {
  const part = PARTS.find((each) => each.kind === kind);
  return part ? readMetadata<readonly unknown[]>(part.key, target) : undefined;
}

/** Each kind's list from `read`, keeping only classes with the kind's method; the rest are boot problems. */
function partLists(
  read: (kind: PartKind) => readonly unknown[] | undefined,
  where: string,
  problems: string[],
  fromOptions = false,
): PartLists {
  const lists = { guards: [], interceptors: [], filters: [] } as Record<PartKind, Constructor[]>;
  for (const { kind, decorator, method } of PARTS) {
    const source = fromOptions ? `createApp({ ${kind} })` : `${decorator} on ${where}`;
    for (const [index, part] of (read(kind) ?? []).entries()) {
      const name = methodName(method);
      if (typeof part !== 'function') {
        problems.push(
          `${source} lists ${describe(part)} at position ${index + 1}, which is not a class: list the class itself; ` +
            'Kiln builds it through DI for each request.',
        );
      } else if (typeof (part.prototype as Record<string, unknown> | undefined)?.[name] !== 'function') {
        problems.push(`${source} lists ${tokenName(part)}, which has no ${method} method.`);
      } else {
        lists[kind].push(part as Constructor);
      }
    }
  }
  return lists as unknown as PartLists;
}

function methodName(signature: string): string {
  return signature.slice(0, signature.indexOf('('));
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `an instance of ${value.constructor?.name ?? 'Object'}`;
  return `a ${typeof value}`;
}
