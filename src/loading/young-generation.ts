// MCP_V8_BOOT_SEMI_SPACE=fixed (the default): V8's young generation keeps its first size while a server boots.
//
// V8 allocates new objects in a young generation of two semi-spaces, 1 MB each at first, and doubles them (to 8 MB
// each on a 64-bit host) whenever more bytes have survived its minor collections since the last growth than a
// semi-space holds. Booting a server is mostly allocating what lives on (modules, compiled definitions, the HTTP host),
// so every start grows them to their largest, and each page a collection has copied into stays resident. Kiln's boot
// allocates a few MB more than a bare SDK server's: enough for one more minor collection after the last growth, which
// was most of why a Kiln server over HTTP held 5-6 MB more than the bare SDK's after its first answer. Held at their
// first size while the runtime loads and the app boots, the semi-spaces stay at 1 MB, and once the first host has
// started (KilnApp.serve) they may grow again as V8 sees fit, so a server under load has the young generation it
// would have had. The extra collections cost no measurable start time: what survives is copied once or twice
// whichever size the semi-spaces are (medians of 12 alternating starts, README "Cold start and memory").
//
// The setting is process-wide, so it is held once (in the main thread only: a worker's imports do not decide for the
// whole process) and never when the node command line names a semi-space flag itself: an explicit choice wins. A
// process that imports the runtime but never serves (a script, a test that only creates an app) keeps the small
// young generation, which costs more frequent, smaller minor collections.
import { setFlagsFromString } from 'node:v8';
import { isMainThread } from 'node:worker_threads';
import { commandLineNames, lastV8Flag, nodeStartFlags, setV8Flag } from './v8-flags.js';

export const BOOT_SEMI_SPACE_SETTINGS = ['fixed', 'grow'] as const;
export type BootSemiSpace = (typeof BOOT_SEMI_SPACE_SETTINGS)[number];

const FLAG = 'semi-space-growth-factor';
/** The semi-spaces keep their size. */
const HELD = `--${FLAG}=1`;
/** V8's own factor. */
const GROWING = `--${FLAG}=2`;

/** Set while outsideHold runs a load: shared by every copy of this module (the loader and the runtime are bundled apart). */
const OUTSIDE_HOLD = Symbol.for('mcp-kiln.outside-hold');
const shared = globalThis as typeof globalThis & { [OUTSIDE_HOLD]?: boolean };

/**
 * MCP_V8_BOOT_SEMI_SPACE, read as `mcp-kiln` is imported (before the app's configuration exists): a value other than
 * `fixed` or `grow` stops the import with the values it accepts.
 */
export function bootSemiSpace(env: NodeJS.ProcessEnv): BootSemiSpace {
  const setting = env.MCP_V8_BOOT_SEMI_SPACE || 'fixed';
  if (!(BOOT_SEMI_SPACE_SETTINGS as readonly string[]).includes(setting)) {
    throw new Error(
      `MCP_V8_BOOT_SEMI_SPACE must be one of ${BOOT_SEMI_SPACE_SETTINGS.join(', ')} (got ${JSON.stringify(setting)}).`,
    );
  }
  return setting as BootSemiSpace;
}

/**
 * Holds the young generation at its size, once per process, unless MCP_V8_BOOT_SEMI_SPACE=grow, in a worker thread
 * or when `startFlags` (the node command line's) name a semi-space flag. True when this call held it.
 */
export function holdYoungGeneration(
  env: NodeJS.ProcessEnv = process.env,
  { mainThread = isMainThread, startFlags = nodeStartFlags() } = {},
): boolean {
  if (bootSemiSpace(env) === 'grow' || !mainThread || commandLineNames('semi-space', startFlags)) return false;
  // Held already, or held and let go: a process boots once.
  if (lastV8Flag(FLAG) !== undefined) return false;
  // Recorded for the code cache of the runtime's chunks, which compile from now on (runtime-loader.ts).
  setV8Flag(HELD, GROWING);
  return true;
}

/** Lets the young generation grow again if holdYoungGeneration held it; true when this call did. */
export function releaseYoungGeneration(): boolean {
  if (lastV8Flag(FLAG) !== HELD) return false;
  setV8Flag(GROWING, HELD);
  return true;
}

/**
 * Runs `load` under the flags Node started with, if the young generation is held. V8 checks every code cache against
 * the flags in force, the cache of Node's own modules that ships in the node binary too: a built-in loaded under the
 * hold compiled from source. Over HTTP that was 53 of them, undici and node:http2 among them, about 7% of the
 * instructions from spawn to the first answer, and parsing them interned enough strings to double V8's string table.
 * The runtime loader loads the built-ins its chunks require, and those the modules they require will load
 * (builtins-loaded-by.ts), through this; nothing it runs allocates enough to grow the young generation.
 */
export function outsideHold<T>(load: () => T, setFlags: (flag: string) => void = setFlagsFromString): T {
  // Nested (a require inside a load), the outer call restores the hold once it is done.
  if (shared[OUTSIDE_HOLD] || lastV8Flag(FLAG) !== HELD) return load();
  shared[OUTSIDE_HOLD] = true;
  setFlags(GROWING);
  try {
    return load();
  } finally {
    setFlags(HELD);
    shared[OUTSIDE_HOLD] = false;
  }
}
