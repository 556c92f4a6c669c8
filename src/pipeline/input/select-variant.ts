// Which declared key set a call is judged against: the object root's, or on a union root the variant its
// discriminator selects. An absent or unrecognized discriminator selects none, and then nothing is guessed.
import type { CompiledInput, CompiledVariant } from '../../definitions/input/compile-input.js';

export type ArgumentRecord = Record<string, unknown>;

export function selectVariant(compiled: CompiledInput, args: ArgumentRecord): CompiledVariant | undefined {
  const { discriminator } = compiled;
  if (discriminator === undefined) return compiled.variants[0];
  if (!Object.hasOwn(args, discriminator)) return undefined;
  return compiled.variantByDiscriminator.get(args[discriminator]);
}
