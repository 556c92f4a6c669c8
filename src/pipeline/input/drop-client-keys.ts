// Stage 1 of argument preparation: drop root keys a client added inside `arguments` (a call id, a `_meta` block,
// a placeholder). The model never wrote them and cannot remove them, so a strict rejection would repeat forever.
import type { CompiledInput } from '../../definitions/input/compile-input.js';
import { type ArgumentRecord, selectVariant } from './select-variant.js';

export interface DroppedKey {
  readonly key: string;
  /** Dropped for its underscore prefix alone, not for being on the client-key list: worth telling the caller. */
  readonly byUnderscoreRule: boolean;
}

export interface DropOutcome {
  readonly args: ArgumentRecord;
  readonly dropped: readonly DroppedKey[];
}

export function dropClientKeys(compiled: CompiledInput, args: ArgumentRecord): DropOutcome {
  if (!compiled.dropEnabled || isOpenFor(compiled, args)) return { args, dropped: [] };
  const underscoreRule = !compiled.declaresUnderscoreKey;
  const dropped: DroppedKey[] = [];
  for (const key of Object.keys(args)) {
    // A declared key is never dropped; on a union root any variant's key counts, whatever the discriminator says.
    if (compiled.declaredKeys.has(key)) continue;
    if (compiled.clientKeys.has(key)) dropped.push({ key, byUnderscoreRule: false });
    else if (underscoreRule && key.startsWith('_')) dropped.push({ key, byUnderscoreRule: true });
  }
  if (dropped.length === 0) return { args, dropped };
  const gone = new Set(dropped.map((drop) => drop.key));
  return { args: Object.fromEntries(Object.entries(args).filter(([key]) => !gone.has(key))), dropped };
}

/** An author-opened root wants unknown keys. On a union with no variant selected, any open variant counts. */
function isOpenFor(compiled: CompiledInput, args: ArgumentRecord): boolean {
  if (!compiled.authorOpened) return false;
  const variant = selectVariant(compiled, args);
  return variant === undefined || variant.authorOpened;
}
