// Boot-time half of argument preparation: strictens the input root once and precomputes every key set and map the
// per-request stages consult, so a request costs a few Set/Map lookups per argument key.
import type { z } from 'zod';
import { findAliasConflicts } from './alias-conflicts.js';
import { foldKeyCase } from './fold-key-case.js';
import { BUILT_IN_IGNORED_KEYS, type InputOptions } from './input-options.js';
import { strictenInputSchema } from './strict-input.js';

export interface CompileInputConfig {
  /** Used in rejection messages (`Invalid arguments for tool <name>: …`). */
  readonly toolName: string;
  /** Declared key aliases, alias → canonical key. */
  readonly aliases?: Readonly<Record<string, string>>;
  readonly options: InputOptions;
}

export interface CompiledVariant {
  readonly keys: ReadonlySet<string>;
  /** Declared keys in declaration order, for the accepted-keys hint. */
  readonly acceptedKeys: readonly string[];
  readonly authorOpened: boolean;
  /** Declared aliases whose target this variant declares. */
  readonly aliases: ReadonlyMap<string, string>;
  /** Case-folded form → the one declared key it names; `null` when two declared keys fold alike. */
  readonly folded: ReadonlyMap<string, string | null>;
}

export interface CompiledInput<TOutput = unknown> {
  readonly toolName: string;
  /** The strict root every call is parsed against. */
  readonly schema: z.ZodType<TOutput>;
  readonly options: InputOptions;
  readonly root: 'object' | 'discriminatedUnion';
  /** Keys declared anywhere in the root: on a union, every variant's keys. */
  readonly declaredKeys: ReadonlySet<string>;
  readonly discriminator: string | undefined;
  readonly variants: readonly CompiledVariant[];
  /** Discriminator value → its variant (union roots only). */
  readonly variantByDiscriminator: ReadonlyMap<unknown, CompiledVariant>;
  /** Built-in list plus `ignoreKeys`: client keys, never case-folded onto a declared key. */
  readonly clientKeys: ReadonlySet<string>;
  readonly dropEnabled: boolean;
  /** A declared `_cursor` switches the underscore drop rule off, so a misspelled one is rejected, not lost. */
  readonly declaresUnderscoreKey: boolean;
  /** The object root, or any union variant, was opened by its author. */
  readonly authorOpened: boolean;
  /** See StrictInput.metaCarried. */
  readonly metaCarried: readonly string[];
}

/**
 * @throws TypeError for an unsupported root (see strictenInputSchema) or conflicting aliases; the message lists
 * every alias problem, one per line, and the caller raises it as a boot error. The linter can collect the same
 * findings without throwing through findAliasConflicts.
 */
export function compileInput<TSchema extends z.ZodType>(
  schema: TSchema,
  config: CompileInputConfig,
): CompiledInput<z.output<TSchema>> {
  const strict = strictenInputSchema(schema);
  const aliases = config.aliases ?? {};
  const problems = findAliasConflicts(strict, aliases);
  if (problems.length > 0) {
    throw new TypeError(
      `Input aliases of tool ${config.toolName} conflict:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
  }

  const variants = strict.variants.map((variant) => compileVariant(variant.keys, variant.authorOpened, aliases));
  const variantByDiscriminator = new Map<unknown, CompiledVariant>();
  strict.variants.forEach((variant, index) => {
    for (const value of variant.discriminatorValues) variantByDiscriminator.set(value, variants[index]!);
  });
  const declaredKeys = new Set(strict.variants.flatMap((variant) => variant.keys));
  const { ignoreKeys } = config.options;

  return {
    toolName: config.toolName,
    // The strict clone accepts a subset of what the author's schema accepts and produces the same output type.
    schema: strict.schema as z.ZodType<z.output<TSchema>>,
    options: config.options,
    root: strict.root,
    declaredKeys,
    discriminator: strict.discriminator,
    variants,
    variantByDiscriminator,
    clientKeys: new Set([...BUILT_IN_IGNORED_KEYS, ...(ignoreKeys === false ? [] : ignoreKeys)]),
    dropEnabled: ignoreKeys !== false,
    declaresUnderscoreKey: [...declaredKeys].some((key) => key.startsWith('_')),
    authorOpened: strict.variants.some((variant) => variant.authorOpened),
    metaCarried: strict.metaCarried,
  };
}

function compileVariant(
  keys: readonly string[],
  authorOpened: boolean,
  aliases: Readonly<Record<string, string>>,
): CompiledVariant {
  const keySet = new Set(keys);
  const folded = new Map<string, string | null>();
  for (const key of keys) {
    const form = foldKeyCase(key);
    folded.set(form, folded.has(form) ? null : key);
  }
  const variantAliases = new Map(Object.entries(aliases).filter(([, target]) => keySet.has(target)));
  return { keys: keySet, acceptedKeys: keys, authorOpened, aliases: variantAliases, folded };
}
