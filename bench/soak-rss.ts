// Samples a process's resident set size once a second with `ps`, which works on Linux and macOS alike and measures
// the process from outside, so sampling adds nothing to the heap being watched.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RssSample {
  /** Seconds since sampling started. */
  readonly atS: number;
  readonly rssMiB: number;
}

export interface RssSampler {
  readonly samples: readonly RssSample[];
  stop(): void;
}

/** A process's RSS in MiB now; NaN once it has exited. */
export async function readRss(pid: number): Promise<number> {
  try {
    const { stdout } = await run('ps', ['-o', 'rss=', '-p', String(pid)]);
    const kib = Number(stdout.trim());
    return Number.isFinite(kib) && kib > 0 ? kib / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export function sampleRss(pid: number, everyMs = 1_000): RssSampler {
  const samples: RssSample[] = [];
  const started = Date.now();
  const take = async () => {
    const rssMiB = await readRss(pid);
    // NaN: the process exited between two samples; the last ones already tell the story.
    if (!Number.isNaN(rssMiB)) samples.push({ atS: (Date.now() - started) / 1000, rssMiB });
  };
  void take();
  const timer = setInterval(() => void take(), everyMs);
  return { samples, stop: () => clearInterval(timer) };
}

/** Mean RSS of the samples taken in [fromS, toS). */
export function meanRss(samples: readonly RssSample[], fromS: number, toS: number): number {
  const window = samples.filter((sample) => sample.atS >= fromS && sample.atS < toS);
  if (window.length === 0) return Number.NaN;
  return window.reduce((sum, sample) => sum + sample.rssMiB, 0) / window.length;
}
