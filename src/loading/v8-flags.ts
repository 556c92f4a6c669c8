// The V8 flags the runtime sets once the process runs, recorded for the runtime loader (runtime-loader.ts): V8 reads
// a code cache only under the flags it was written under, so the loader writes each chunk's cache under the flags that
// were set when the chunk compiled, undoing the ones set since and setting them again.
import { setFlagsFromString } from 'node:v8';

/** Where the flags are kept, in the order they were set: shared by the runtime and the loader, which are bundled apart. */
export const V8_FLAGS_SET = Symbol.for('mcp-kiln.v8-flags-set');

/** One v8.setFlagsFromString the runtime made: the flag as set, and the flag that restores what it replaced. */
export interface V8FlagChange {
  readonly flag: string;
  readonly undo: string;
}

const global = globalThis as typeof globalThis & { [V8_FLAGS_SET]?: V8FlagChange[] };

/** Records `flag` (one flag, as passed to v8.setFlagsFromString) as set from now on; `undo` sets back what it changed. */
export function recordV8Flag(flag: string, undo: string): void {
  global[V8_FLAGS_SET] = [...(global[V8_FLAGS_SET] ?? []), { flag, undo }];
}

/** The flags set so far, in order. */
export const v8FlagsSet = (): readonly V8FlagChange[] => global[V8_FLAGS_SET] ?? [];

/** Sets `flag` for the whole process and records it, with the flag that sets back what it changed. */
export function setV8Flag(flag: string, undo: string): void {
  setFlagsFromString(flag);
  recordV8Flag(flag, undo);
}

/** The last flag the runtime set that names `name` (`allocation-site-pretenuring`, say), if it set one. */
export const lastV8Flag = (name: string): string | undefined =>
  v8FlagsSet().findLast(({ flag }) => flag.includes(name))?.flag;

/** Whether the node command line (execArgv and NODE_OPTIONS) names `flag`: an explicit choice the runtime leaves be. */
export const commandLineNames = (flag: string, startFlags: readonly string[]) =>
  startFlags.some((arg) => arg.includes(flag));

/** The node command line's own flags, as commandLineNames reads them. */
export const nodeStartFlags = (): string[] => [...process.execArgv, process.env.NODE_OPTIONS ?? ''];
