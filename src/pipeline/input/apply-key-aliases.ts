// Stage 2 of argument preparation: bring an aliased or case-styled key to its canonical name. Only certain
// mappings apply: a declared alias, or a case-folded spelling naming exactly one declared key of the variant.
import type { CompiledInput, CompiledVariant } from '../../definitions/input/compile-input.js';
import { foldKeyCase } from '../../definitions/input/fold-key-case.js';
import { type ArgumentRecord, selectVariant } from './select-variant.js';

export type KeyRewrite = [from: string, to: string];

export interface AliasOutcome {
  readonly args: ArgumentRecord;
  readonly aliased: readonly KeyRewrite[];
}

export function applyKeyAliases(compiled: CompiledInput, args: ArgumentRecord): AliasOutcome {
  const variant = selectVariant(compiled, args);
  if (variant === undefined || variant.authorOpened) return { args, aliased: [] };

  const byTarget = new Map<string, string[]>();
  for (const key of Object.keys(args)) {
    if (variant.keys.has(key)) continue;
    const target = resolveTarget(compiled, variant, key);
    // Alias and target both present fails exactly as strict input would: the caller sent two values for one key.
    if (target === undefined || Object.hasOwn(args, target)) continue;
    const sources = byTarget.get(target) ?? [];
    sources.push(key);
    byTarget.set(target, sources);
  }
  const renames = new Map<string, string>();
  for (const [target, sources] of byTarget) {
    // Two spellings of one absent key: picking either would be a guess, so both stay and are rejected by name.
    if (sources.length === 1) renames.set(sources[0]!, target);
  }
  if (renames.size === 0) return { args, aliased: [] };

  const entries = Object.entries(args).map(([key, value]): [string, unknown] => [renames.get(key) ?? key, value]);
  return { args: Object.fromEntries(entries), aliased: [...renames] };
}

function resolveTarget(compiled: CompiledInput, variant: CompiledVariant, key: string): string | undefined {
  const declared = variant.aliases.get(key);
  if (declared !== undefined) return declared;
  // A client key stays the client's: `_meta` is never folded onto a declared `meta`.
  if (!compiled.options.caseStyleAliases || compiled.clientKeys.has(key)) return undefined;
  return variant.folded.get(foldKeyCase(key)) ?? undefined;
}
