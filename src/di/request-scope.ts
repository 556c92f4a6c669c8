// One child container per request: the Context is registered under CONTEXT, request-scoped providers are built
// on first use, and everything the child built is disposed when the request ends.
import type { DependencyContainer } from 'tsyringe';
import type { Constructor } from '../../decorators/types.js';
import { CONTEXT } from './tokens.js';

export interface RequestScope {
  resolve<T>(ctor: Constructor<T>): T;
  dispose(): Promise<void>;
}

export function openRequestScope(root: DependencyContainer, context: unknown): RequestScope {
  const child = root.createChildContainer();
  child.register(CONTEXT, { useValue: context });
  return {
    resolve: <T>(ctor: Constructor<T>) => child.resolve<T>(ctor as new () => T),
    dispose: async () => {
      await child.dispose();
    },
  };
}
