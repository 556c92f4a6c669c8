// Boot-time half of argument preparation: strictens a zod input root once (a raw JSON Schema root is compiled in
// json-schema-input.ts) and precomputes every key set and map the per-request stages consult, so a request costs a
// few Set/Map lookups per argument key.
import type { z } from 'zod';
import { X_MCP_HEADER } from '../../../decorators/header-param.js';
import { advertisedInputSchema, type JsonSchema } from '../schema/json-schema.js';
import { findAliasConflicts } from './alias-conflicts.js';
import { foldKeyCase } from './fold-key-case.js';
import type { InputLayout } from './input-layout.js';
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

/** A validation of prepared arguments: the handler's input, or issues in zod's shape (whatever the schema kind). */
export type InputValidation<TOutput> =
  | { readonly success: true; readonly data: TOutput }
  | { readonly success: false; readonly issues: z.core.$ZodIssue[] };

export interface CompiledInput<TOutput = unknown> {
  readonly toolName: string;
  /** Validates arguments after the key stages: zod's strict parse, or the JSON Schema validator compiled at boot. */
  readonly validate: (args: Readonly<Record<string, unknown>>) => InputValidation<TOutput>;
  /** The inputSchema tools/list advertises: zod's, converted once, or the author's raw schema verbatim. */
  readonly advertised: JsonSchema;
  /** Root keys designated as header parameters (`x-mcp-header`): never the target of an alias or case-style rewrite. */
  readonly headerKeys: ReadonlySet<string>;
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

/** A zod input: the strict root is kept for tests and tooling that parse against it directly. */
export interface ZodCompiledInput<TOutput = unknown> extends CompiledInput<TOutput> {
  /** The strict root every call is parsed against. */
  readonly schema: z.ZodType<TOutput>;
}

export type { InputLayout } from './input-layout.js';

/**
 * @throws TypeError for an unsupported root (see strictenInputSchema) or conflicting aliases; the message lists
 * every alias problem, one per line, and the caller raises it as a boot error. The linter can collect the same
 * findings without throwing through findAliasConflicts.
 */
export function compileInput<TSchema extends z.ZodType>(
  schema: TSchema,
  config: CompileInputConfig,
): ZodCompiledInput<z.output<TSchema>> {
  const strict = strictenInputSchema(schema);
  // The strict clone accepts a subset of what the author's schema accepts and produces the same output type.
  const strictSchema = strict.schema as z.ZodType<z.output<TSchema>>;
  const compiled = assembleInput<z.output<TSchema>>(strict, config, {
    advertised: advertisedInputSchema(strictSchema),
    metaCarried: strict.metaCarried,
    validate: (args) => {
      const parsed = strictSchema.safeParse(args);
      return parsed.success ? { success: true, data: parsed.data } : { success: false, issues: parsed.error.issues };
    },
  });
  return { ...compiled, schema: strictSchema };
}

/**
 * The key tables of a compiled input, shared by zod and raw JSON Schema roots.
 * @throws TypeError when the declared aliases conflict (see compileInput).
 */
export function assembleInput<TOutput>(
  layout: InputLayout,
  config: CompileInputConfig,
  schema: Pick<CompiledInput<TOutput>, 'advertised' | 'metaCarried' | 'validate'>,
): CompiledInput<TOutput> {
  const aliases = config.aliases ?? {};
  const headerKeys = rootHeaderKeys(schema.advertised);
  const problems = findAliasConflicts(layout, aliases, headerKeys);
  if (problems.length > 0) {
    throw new TypeError(
      `Input aliases of tool ${config.toolName} conflict:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
  }

  const variants = layout.variants.map((variant) =>
    compileVariant(variant.keys, variant.authorOpened, aliases, headerKeys),
  );
  const variantByDiscriminator = new Map<unknown, CompiledVariant>();
  layout.variants.forEach((variant, index) => {
    for (const value of variant.discriminatorValues) variantByDiscriminator.set(value, variants[index]!);
  });
  const declaredKeys = new Set(layout.variants.flatMap((variant) => variant.keys));
  const { ignoreKeys } = config.options;

  return {
    toolName: config.toolName,
    validate: schema.validate,
    advertised: schema.advertised,
    headerKeys,
    options: config.options,
    root: layout.root,
    declaredKeys,
    discriminator: layout.discriminator,
    variants,
    variantByDiscriminator,
    clientKeys: new Set([...BUILT_IN_IGNORED_KEYS, ...(ignoreKeys === false ? [] : ignoreKeys)]),
    dropEnabled: ignoreKeys !== false,
    declaresUnderscoreKey: [...declaredKeys].some((key) => key.startsWith('_')),
    authorOpened: layout.variants.some((variant) => variant.authorOpened),
    metaCarried: schema.metaCarried,
  };
}

function compileVariant(
  keys: readonly string[],
  authorOpened: boolean,
  aliases: Readonly<Record<string, string>>,
  headerKeys: ReadonlySet<string>,
): CompiledVariant {
  const keySet = new Set(keys);
  const folded = new Map<string, string | null>();
  for (const key of keys) {
    // A header parameter is mirrored into Mcp-Param-* and checked against the body before the call runs; a rewrite
    // onto it would hand the handler a value no header attested.
    if (headerKeys.has(key)) continue;
    const form = foldKeyCase(key);
    folded.set(form, folded.has(form) ? null : key);
  }
  const variantAliases = new Map(Object.entries(aliases).filter(([, target]) => keySet.has(target)));
  return { keys: keySet, acceptedKeys: keys, authorOpened, aliases: variantAliases, folded };
}

/** Root properties (of the object, or of any `oneOf` branch) that carry `x-mcp-header`. */
function rootHeaderKeys(advertised: JsonSchema): ReadonlySet<string> {
  const keys = new Set<string>();
  const objects = [advertised, ...((advertised.oneOf as JsonSchema[] | undefined) ?? [])];
  for (const object of objects) {
    const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
    for (const [key, property] of Object.entries(properties)) {
      if (typeof property === 'object' && property !== null && X_MCP_HEADER in property) keys.add(key);
    }
  }
  return keys;
}
