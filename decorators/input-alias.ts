// @InputAlias({ alias: canonical }): argument keys a caller may use for a declared input key. Never advertised.
import { defineMetadata, INPUT_ALIAS_METADATA } from './metadata-keys.js';
import type { Constructor } from './types.js';

export function InputAlias(aliases: Readonly<Record<string, string>>): (target: Constructor) => void {
  return (target) => defineMetadata(INPUT_ALIAS_METADATA, aliases, target);
}
