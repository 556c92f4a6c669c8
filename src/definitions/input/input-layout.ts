// What the input compiler and its alias check share about an input root.

/** The key layout of an input root, whatever kind of schema declared it. */
export interface InputLayout {
  readonly root: 'object' | 'discriminatedUnion';
  readonly discriminator: string | undefined;
  readonly variants: readonly {
    readonly keys: readonly string[];
    readonly authorOpened: boolean;
    readonly discriminatorValues: readonly unknown[];
  }[];
}
