// @Inject(token): names the token for one constructor parameter, for interfaces, symbols and strings that
// TypeScript's emitted parameter types cannot express.
import { defineMetadata, INJECT_METADATA, readMetadata } from './metadata-keys.js';
import type { Constructor, InjectionToken } from './types.js';

export function Inject(token: InjectionToken): ParameterDecorator {
  return (target, _propertyKey, index) => {
    const ctor = target as Constructor;
    const tokens = new Map(readMetadata<Map<number, InjectionToken>>(INJECT_METADATA, ctor) ?? []);
    tokens.set(index, token);
    defineMetadata(INJECT_METADATA, tokens, ctor);
  };
}
