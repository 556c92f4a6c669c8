// The V8 flags the runtime sets once the process runs, recorded for the runtime loader (runtime-loader.ts): V8 reads
// a code cache only under the flags it was written under, so the loader writes each chunk's cache under the flags that
// were set when the chunk compiled.

/** Where the flags are kept, in the order they were set: shared by the runtime and the loader, which are bundled apart. */
export const V8_FLAGS_SET = Symbol.for('mcp-kiln.v8-flags-set');

const global = globalThis as typeof globalThis & { [V8_FLAGS_SET]?: string[] };

/** Records `flag` (as passed to v8.setFlagsFromString, one flag) as set from now on. */
export function recordV8Flag(flag: string): void {
  global[V8_FLAGS_SET] = [...(global[V8_FLAGS_SET] ?? []), flag];
}

/** The flags set so far, in order. */
export const v8FlagsSet = (): readonly string[] => global[V8_FLAGS_SET] ?? [];
