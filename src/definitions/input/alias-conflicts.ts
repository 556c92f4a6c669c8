// Boot-time checks on a tool's declared key aliases. An alias is only safe when its meaning is certain and the
// mapping one-to-one; each finding below names a way the rewrite would guess or could never apply.

import { foldKeyCase } from './fold-key-case.js';
import type { InputLayout } from './input-layout.js';

/** Every problem with `aliases` (alias → declared target) against the input's declared keys, as sentences. */
export function findAliasConflicts(
  input: InputLayout,
  aliases: Readonly<Record<string, string>>,
  headerKeys: ReadonlySet<string> = new Set(),
): string[] {
  const declared = new Set(input.variants.flatMap((variant) => variant.keys));
  const declaredByFold = new Map<string, Set<string>>();
  for (const key of declared) {
    const folded = foldKeyCase(key);
    const keys = declaredByFold.get(folded) ?? new Set<string>();
    keys.add(key);
    declaredByFold.set(folded, keys);
  }
  const where = input.root === 'discriminatedUnion' ? 'no variant declares' : 'the input does not declare';

  const problems: string[] = [];
  const aliasByFold = new Map<string, [alias: string, target: string]>();
  for (const [alias, target] of Object.entries(aliases)) {
    if (declared.has(alias)) {
      problems.push(`Alias "${alias}" shadows the declared key "${alias}".`);
      continue;
    }
    if (!declared.has(target)) {
      problems.push(`Alias "${alias}" names "${target}", which ${where}.`);
      continue;
    }
    if (headerKeys.has(target)) {
      problems.push(
        `Alias "${alias}" names the header parameter "${target}", which is never rewritten: its Mcp-Param header is checked against the body as sent.`,
      );
      continue;
    }
    if (target === input.discriminator) {
      problems.push(
        `Alias "${alias}" names the discriminator "${target}", which is never rewritten: the variant is chosen by it before aliases apply.`,
      );
      continue;
    }
    const folded = foldKeyCase(alias);
    const rivals = [...(declaredByFold.get(folded) ?? [])].filter((key) => key !== target);
    if (rivals.length > 0) {
      problems.push(
        `Alias "${alias}" names "${target}" but reads as the declared key ${rivals.map((k) => `"${k}"`).join(', ')} once case and separators are ignored.`,
      );
    }
    const twin = aliasByFold.get(folded);
    if (twin !== undefined && twin[1] !== target) {
      problems.push(
        `Aliases "${twin[0]}" and "${alias}" differ only in case or separators but name different keys ("${twin[1]}", "${target}").`,
      );
    }
    if (twin === undefined) aliasByFold.set(folded, [alias, target]);
  }
  return problems;
}
