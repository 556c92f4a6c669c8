// @Injectable({ scope }): a provider class. `singleton` (default) is built once at boot; `request` once per request,
// in that request's child container, where it may depend on the request's Context.
import { defineMetadata, INJECTABLE_METADATA } from './metadata-keys.js';
import type { Constructor, ProviderScope } from './types.js';

export interface InjectableOptions {
  readonly scope?: ProviderScope;
}

export function Injectable(options: InjectableOptions = {}): (target: Constructor) => void {
  return (target) => defineMetadata(INJECTABLE_METADATA, { scope: options.scope ?? 'singleton' }, target);
}
