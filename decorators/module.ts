// @Module({ imports, providers, exports, tools, resources, prompts, skills }): a unit of encapsulation. Providers are
// private to their module unless exported; the app compiler enforces that at boot.
import { defineMetadata, MODULE_METADATA } from './metadata-keys.js';
import type { Constructor, ModuleMetadata } from './types.js';

export function Module(metadata: ModuleMetadata): (target: Constructor) => void {
  return (target) => defineMetadata(MODULE_METADATA, metadata, target);
}
