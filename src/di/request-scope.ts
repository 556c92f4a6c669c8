// One request scope per request: CONTEXT resolves to the request's Context, request-scoped providers are built on
// first use, and whatever was built for the request and can be disposed is disposed when it ends.
//
// Most definitions depend only on singletons (built at boot) and the Context. Such a class gets a recipe at boot (its
// constructor arguments, the Context's places left open) and is built from it directly, as tsyringe would build it;
// the tsyringe child container is made only when a request asks for something a recipe cannot give (a request-scoped
// provider, or a class with one among its dependencies), so the common request never makes or disposes one.
import type { DependencyContainer } from 'tsyringe';
import type { Constructor, InjectionToken, ProviderScope } from '../../decorators/types.js';
import type { ConstructorDependency } from './constructor-dependencies.js';
import { CONTEXT } from './tokens.js';

export interface RequestScope {
  /** Builds `ctor` for this request (arrow-bound: call sites pass it around detached). */
  readonly resolve: <T>(ctor: Constructor<T>) => T;
  /** Disposes what this request built; undefined when nothing needed it. */
  dispose(): Promise<void> | undefined;
}

/** A class built straight from its constructor arguments: singletons resolved at boot, the Context at `contextAt`. */
interface Recipe {
  readonly args: readonly unknown[];
  readonly contextAt: readonly number[];
}

type Disposable = { dispose(): unknown };
type TsyringeToken = Parameters<DependencyContainer['resolve']>[0];

export class RequestScopes {
  private constructor(
    private readonly root: DependencyContainer,
    private readonly recipes: ReadonlyMap<Constructor, Recipe>,
  ) {}

  /**
   * Recipes for every class built per request (`consumers`: definitions and their guards, interceptors and filters)
   * whose dependencies are all singletons or the Context; call once the root container has built its singletons.
   */
  static compile(
    root: DependencyContainer,
    consumers: ReadonlyMap<Constructor, readonly ConstructorDependency[]>,
    scopeOf: (token: InjectionToken) => ProviderScope,
  ): RequestScopes {
    const recipes = new Map<Constructor, Recipe>();
    for (const [ctor, dependencies] of consumers) {
      if (dependencies.some((d) => d.token !== CONTEXT && scopeOf(d.token) !== 'singleton')) continue;
      const contextAt = dependencies.filter((d) => d.token === CONTEXT).map((d) => d.index);
      const args = dependencies.map((d) => (d.token === CONTEXT ? undefined : root.resolve(d.token as TsyringeToken)));
      recipes.set(ctor, { args, contextAt });
    }
    return new RequestScopes(root, recipes);
  }

  open(context: unknown): RequestScope {
    return new LazyRequestScope(this.root, this.recipes, context);
  }
}

class LazyRequestScope implements RequestScope {
  #child: DependencyContainer | undefined;
  #disposables: Disposable[] | undefined;

  constructor(
    private readonly root: DependencyContainer,
    private readonly recipes: ReadonlyMap<Constructor, Recipe>,
    private readonly context: unknown,
  ) {}

  readonly resolve = <T>(ctor: Constructor<T>): T => {
    const recipe = this.recipes.get(ctor);
    if (recipe === undefined) return this.child().resolve<T>(ctor as new () => T);
    let args = recipe.args;
    if (recipe.contextAt.length > 0) {
      const withContext = [...args];
      for (const index of recipe.contextAt) withContext[index] = this.context;
      args = withContext;
    }
    const built = new (ctor as new (...args: unknown[]) => T)(...args);
    // As tsyringe does for what it builds: anything with a dispose() is disposed with the request.
    if (typeof (built as Partial<Disposable>).dispose === 'function') {
      this.#disposables ??= [];
      this.#disposables.push(built as Disposable);
    }
    return built;
  };

  dispose(): Promise<void> | undefined {
    const child = this.#child;
    const disposables = this.#disposables;
    if (child === undefined && disposables === undefined) return undefined;
    const pending: unknown[] = disposables?.map((disposable) => disposable.dispose()) ?? [];
    if (child) pending.push(child.dispose());
    return Promise.all(pending).then(() => undefined);
  }

  private child(): DependencyContainer {
    if (this.#child === undefined) {
      this.#child = this.root.createChildContainer();
      this.#child.register(CONTEXT, { useValue: this.context });
    }
    return this.#child;
  }
}
