// The cold-start section of `npm run bench`: one row per server and transport, each with its ratio to the SDK server
// of that transport's baseline, and the JSON record next to the throughput results.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BOOT_SETTLE_MS,
  type ColdRecord,
  type ColdSettings,
  type ColdTarget,
  type ColdTransport,
  measureColdStart,
} from './cold-start.js';

const resultsPath = fileURLToPath(new URL('../../bench/results/cold-start.json', import.meta.url));

/**
 * What each transport's ratios are taken against: the bare SDK over stdio, and over HTTP the SDK on its own Fastify
 * adapter, since Kiln's HTTP host serves through Fastify too. The bare SDK on node:http shows what Fastify costs.
 */
const BASELINES: Readonly<Record<ColdTransport, ColdTarget['server']>> = {
  stdio: 'bare SDK',
  http: 'bare SDK on Fastify',
};

export function coldSettingsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): ColdSettings {
  return {
    runs: positiveInt(env, 'BENCH_COLD_RUNS', 7),
    loadS: positiveInt(env, 'BENCH_COLD_LOAD', 30),
    concurrency: positiveInt(env, 'BENCH_COLD_CONCURRENCY', 8),
  };
}

/** Measures, writes bench/results/cold-start.json and returns the table; failed load calls set the exit code. */
export async function coldStartSection(
  settings: ColdSettings = coldSettingsFromEnv(),
  progress: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<string> {
  const records = await measureColdStart(settings, undefined, progress);
  await mkdir(dirname(resultsPath), { recursive: true });
  const document = { when: new Date().toISOString(), node: process.version, settings, records };
  await writeFile(resultsPath, `${JSON.stringify(document, null, 2)}\n`);
  const failed = records.filter((r) => r.loadFailures > 0);
  if (failed.length > 0) {
    process.stderr.write(
      `\nCalls failed under load: ${failed.map((r) => `${r.server} (${r.transport})`).join(', ')}\n`,
    );
    process.exitCode = 1;
  }
  return `${renderColdTable(records, settings)}\n\nResults: ${resultsPath}`;
}

export function renderColdTable(records: readonly ColdRecord[], settings: ColdSettings): string {
  const baseline = (r: ColdRecord) =>
    records.find((b) => b.server === BASELINES[r.transport] && b.transport === r.transport);
  const ratio = (value: number, base: number | undefined) =>
    base === undefined ? '-' : `${(value / base).toFixed(2)}×`;
  const header = [
    'server',
    'transport',
    'cold ms',
    'ratio',
    'min–max',
    'CPU ms',
    'CPU ratio',
    'RSS boot MB',
    'RSS load MB',
    'RSS ratio',
    'load calls/s',
  ];
  const rows = records.map((r) => [
    r.server,
    r.transport,
    r.coldMedianMs.toFixed(0),
    ratio(r.coldMedianMs, baseline(r)?.coldMedianMs),
    `${Math.min(...r.coldMs).toFixed(0)}–${Math.max(...r.coldMs).toFixed(0)}`,
    r.cpuMedianMs.toFixed(0),
    ratio(r.cpuMedianMs, baseline(r)?.cpuMedianMs),
    r.rssBootMb.toFixed(1),
    r.rssLoadedMb.toFixed(1),
    `${ratio(r.rssBootMb, baseline(r)?.rssBootMb)} / ${ratio(r.rssLoadedMb, baseline(r)?.rssLoadedMb)}`,
    r.loadCallsPerSec.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i < 2 ? `${'-'.repeat(w + 2)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [
    `Cold start: spawn → first successful tools/call (official client, 2025 handshake), median of ${settings.runs} runs;`,
    "CPU ms: the server process's CPU time (user + system) by then, steadier than wall time on a busy machine;",
    `RSS boot: ${BOOT_SETTLE_MS / 1000} s after that call, median of the same runs; RSS load: one more start, over the last 5 s of`,
    `${settings.loadS} s of notes_get_note with ${settings.concurrency} calls in flight`,
    '(one official client; load calls/s is the rate it kept up);',
    "ratio = over the bare SDK server over stdio, and over the same server on the SDK's Fastify adapter over HTTP",
    '(the bare SDK on node:http shows what serving through Fastify costs).',
    '',
    line(header),
    rule,
    ...rows.map(line),
  ].join('\n');
}

function positiveInt(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const raw = env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name}=${raw} must be a positive integer.`);
  return value;
}
