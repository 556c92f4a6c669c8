// How every fuzz property runs: one fixed default seed, so `npm test` is deterministic, overridable with
// KILN_FUZZ_SEED to explore or to replay what fast-check printed on a failure (with KILN_FUZZ_PATH, straight to the
// shrunk counterexample); KILN_FUZZ_RUNS scales the runs.
import type { Parameters } from 'fast-check';

/** The seed every property uses unless KILN_FUZZ_SEED says otherwise. */
export const DEFAULT_FUZZ_SEED = 20260728;

/** KILN_FUZZ_RUNS, when set, replaces each property's own run count (which is kept small for `npm test`). */
export function fuzzParameters<T>(defaultRuns: number): Parameters<T> {
  const path = process.env.KILN_FUZZ_PATH;
  return {
    seed: envInteger('KILN_FUZZ_SEED') ?? DEFAULT_FUZZ_SEED,
    numRuns: envInteger('KILN_FUZZ_RUNS') ?? defaultRuns,
    ...(path ? { path, endOnFailure: true } : {}),
  };
}

/** Generous per-test timeout for a property: its runs, at `msPerRun` each, plus start-up. */
export function fuzzTimeout(defaultRuns: number, msPerRun: number): number {
  return 20_000 + (envInteger('KILN_FUZZ_RUNS') ?? defaultRuns) * msPerRun;
}

function envInteger(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name}=${raw} must be an integer.`);
  return value;
}
