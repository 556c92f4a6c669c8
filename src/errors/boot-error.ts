// Raised while an app is assembled (definitions, modules, DI scopes, configuration). Boot stops on the first one;
// `problems` carries every finding of the same pass so the author fixes them all at once, and `warnings` the lint
// warnings of that pass, which a booting app would have logged (`kiln lint` prints both).
export class KilnBootError extends Error {
  readonly problems: readonly string[];
  readonly warnings: readonly string[];

  constructor(problems: readonly string[] | string, warnings: readonly string[] = []) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.length === 1 ? `${list[0]}` : `Kiln could not start:\n${list.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'KilnBootError';
    this.problems = list;
    this.warnings = warnings;
  }
}
