// Reads what a class's constructor needs: TypeScript's emitted parameter types, overridden by @Inject. A parameter
// whose type TypeScript could not express (an interface, a union, a type-only import) has no token and fails boot.
import { INJECT_METADATA, readMetadata } from '../../decorators/metadata-keys.js';
import type { Constructor, InjectionToken } from '../../decorators/types.js';

export interface ConstructorDependency {
  readonly index: number;
  readonly name: string;
  readonly token: InjectionToken;
  /** Where the dependency is declared; constructor parameters unless a factory's `inject` list. */
  readonly source?: 'constructor' | 'factory';
}

export type DependencyResult =
  | { readonly ok: true; readonly dependencies: readonly ConstructorDependency[] }
  | { readonly ok: false; readonly problems: readonly string[] };

// Types TypeScript emits for parameters it cannot turn into a runtime class.
const UNRESOLVABLE = new Set<unknown>([
  undefined,
  Object,
  String,
  Number,
  Boolean,
  Symbol,
  BigInt,
  Array,
  Function,
  Promise,
]);

export function readConstructorDependencies(ctor: Constructor): DependencyResult {
  const declared = readMetadata<Map<number, InjectionToken>>(INJECT_METADATA, ctor) ?? new Map();
  const emitted = Reflect.getOwnMetadata('design:paramtypes', ctor) as unknown[] | undefined;
  const names = parameterNames(ctor);
  const arity = Math.max(ctor.length, emitted?.length ?? 0, names.length, ...[...declared.keys()].map((i) => i + 1));
  if (arity > 0 && emitted === undefined && declared.size < arity) {
    return {
      ok: false,
      problems: [
        `${ctor.name} has constructor parameters but no emitted parameter types: compile it with "emitDecoratorMetadata" ` +
          `(and a Kiln decorator on the class), or name every parameter with @Inject(TOKEN).`,
      ],
    };
  }
  const dependencies: ConstructorDependency[] = [];
  const problems: string[] = [];
  for (let index = 0; index < arity; index++) {
    const name = names[index] ?? `arg${index}`;
    const token = declared.get(index) ?? (emitted?.[index] as InjectionToken | undefined);
    if (UNRESOLVABLE.has(token)) {
      const recorded =
        token === undefined ? 'undefined (a circular or type-only import)' : (token as { name: string }).name;
      problems.push(
        `${ctor.name} constructor parameter #${index} '${name}' has no resolvable injection token: TypeScript recorded ` +
          `${recorded}. Use a class type, or name the token with @Inject(TOKEN).`,
      );
      continue;
    }
    dependencies.push({ index, name, token: token as InjectionToken });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, dependencies };
}

// Parameter names only make boot messages readable; a failure to read them is harmless.
function parameterNames(ctor: Constructor): string[] {
  const source = Function.prototype.toString.call(ctor);
  const match = /constructor\s*\(([^)]*)\)/.exec(source);
  if (!match?.[1]?.trim()) return [];
  return match[1].split(',').map((part) =>
    part
      .replace(/=.*$/s, '')
      .replace(/[\s.{}[\]]/g, '')
      .trim(),
  );
}
