// The soak's verdict: throughput, latency and failures from autocannon and the write loop, the server's RSS after
// warm-up against its RSS at the end, and whether either one fails the run.
import type { Result } from 'autocannon';
import { meanRss, type RssSample } from './soak-rss.js';

export interface SoakSettings {
  readonly seconds: number;
  readonly connections: number;
  readonly warmupS: number;
  /** Largest allowed RSS growth from warm-up to the end, in percent. */
  readonly maxGrowthPct: number;
}

export interface SoakOutcome {
  readonly settings: SoakSettings;
  readonly load: Result;
  readonly notesCreated: number;
  readonly sessionsChurned: number;
  readonly writeFailures: readonly string[];
  readonly rss: readonly RssSample[];
  /** /healthz after the load: live 2025 sessions (the mix's two) and requests in flight (none). */
  readonly health: { readonly sessions: number; readonly inFlight: number };
}

/** The window RSS is averaged over, at the end of warm-up and at the end of the run. */
const WINDOW_S = 5;

export function rssGrowth(outcome: SoakOutcome) {
  const { warmupS, seconds } = outcome.settings;
  const afterWarmup = meanRss(outcome.rss, warmupS, warmupS + WINDOW_S);
  const atEnd = meanRss(outcome.rss, seconds - WINDOW_S, seconds + 1);
  return { afterWarmup, atEnd, growthPct: ((atEnd - afterWarmup) / afterWarmup) * 100 };
}

export function failures(outcome: SoakOutcome): string[] {
  const { load } = outcome;
  const problems: string[] = [];
  if (load.errors + load.timeouts > 0) problems.push(`${load.errors} connection errors, ${load.timeouts} timeouts`);
  if (load.non2xx > 0) problems.push(`${load.non2xx} non-2xx responses`);
  if (load.mismatches > 0) problems.push(`${load.mismatches} responses that were not a result`);
  if (outcome.writeFailures.length > 0) {
    problems.push(`${outcome.writeFailures.length} failed writes, first: ${outcome.writeFailures[0]}`);
  }
  const { growthPct } = rssGrowth(outcome);
  if (!(growthPct <= outcome.settings.maxGrowthPct)) {
    problems.push(`RSS grew ${growthPct.toFixed(1)}% after warm-up (limit ${outcome.settings.maxGrowthPct}%)`);
  }
  if (outcome.health.inFlight !== 0)
    problems.push(`${outcome.health.inFlight} requests still in flight after the load`);
  return problems;
}

export function renderSoak(outcome: SoakOutcome): string {
  const { load, settings } = outcome;
  const rss = rssGrowth(outcome);
  const rows: [string, string][] = [
    ['duration', `${settings.seconds} s, ${settings.connections} connections, warm-up ${settings.warmupS} s`],
    ['requests (load)', String(load.requests.total)],
    [
      'paced writes',
      `${outcome.notesCreated} notes created, ${outcome.sessionsChurned} 2025 sessions opened and closed`,
    ],
    ['errors', String(load.errors + load.timeouts + load.mismatches + outcome.writeFailures.length)],
    ['non-2xx', String(load.non2xx)],
    ['req/s', load.requests.average.toFixed(0)],
    ['latency p50', `${load.latency.p50} ms`],
    ['latency p99', `${load.latency.p99} ms`],
    ['RSS after warm-up', `${rss.afterWarmup.toFixed(1)} MiB`],
    ['RSS at end', `${rss.atEnd.toFixed(1)} MiB`],
    ['RSS growth', `${rss.growthPct >= 0 ? '+' : ''}${rss.growthPct.toFixed(1)}% (limit ${settings.maxGrowthPct}%)`],
    [
      'RSS min / max',
      `${Math.min(...outcome.rss.map((s) => s.rssMiB)).toFixed(1)} / ${Math.max(...outcome.rss.map((s) => s.rssMiB)).toFixed(1)} MiB`,
    ],
    ['sessions / in flight after', `${outcome.health.sessions} / ${outcome.health.inFlight}`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}

/** RSS every 5 s, for seeing the shape of the curve (a sawtooth is GC; a ramp is a leak). */
export function renderRssCurve(samples: readonly RssSample[]): string {
  const points = samples.filter((_, index) => index % 5 === 0);
  return points.map((sample) => `${sample.atS.toFixed(0)}s ${sample.rssMiB.toFixed(0)}`).join('  ');
}
