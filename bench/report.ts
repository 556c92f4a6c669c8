// The benchmark's report: one row per scenario (medians over the alternating rounds), throughput as a ratio to the
// SDK's createMcpHandler (2026-07-28) or to the SDK's own session wiring (2025 sessions), and the JSON record.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface RoundResult {
  readonly reqPerSec: number;
  readonly p50: number;
  readonly p99: number;
  /** Non-2xx responses, connection errors, timeouts and bodies without the note. */
  readonly bad: number;
}

export interface RunRecord {
  readonly server: string;
  readonly era: string;
  /** The call under load: tools/call, resources/read or prompts/get. */
  readonly call: string;
  readonly reqPerSec: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly bad: number;
  readonly coldStartMs: number;
  readonly rssBootMb: number;
  readonly rssLoadedMb: number;
  readonly rounds: readonly RoundResult[];
}

/** What each era's ratio is taken against. */
const BASELINES: Readonly<Record<string, string>> = {
  '2026-07-28': 'SDK createMcpHandler',
  '2025-11-25': 'SDK sessions',
};

export function summarise(
  server: string,
  era: string,
  call: string,
  rounds: readonly RoundResult[],
  extra: { coldStartMs: number; rssBootMb: number; rssLoadedMb: number },
): RunRecord {
  return {
    server,
    era,
    call,
    reqPerSec: median(rounds.map((r) => r.reqPerSec)),
    latencyP50Ms: median(rounds.map((r) => r.p50)),
    latencyP99Ms: median(rounds.map((r) => r.p99)),
    bad: rounds.reduce((sum, r) => sum + r.bad, 0),
    ...extra,
    rounds,
  };
}

export function failed(record: RunRecord): boolean {
  return record.bad > 0;
}

function ratio(record: RunRecord, records: readonly RunRecord[]): number | undefined {
  const baseline = records.find(
    (r) => r.server === BASELINES[record.era] && r.era === record.era && r.call === record.call,
  );
  if (!baseline) return undefined;
  // Round by round (the two ran back to back), then the median: a machine slowing down mid-run shifts both alike.
  const perRound = record.rounds.flatMap((round, index) => {
    const base = baseline.rounds[index]?.reqPerSec;
    return base ? [round.reqPerSec / base] : [];
  });
  return perRound.length > 0 ? median(perRound) : record.reqPerSec / baseline.reqPerSec;
}

export function renderTable(records: readonly RunRecord[], settings: { connections: number; rounds: number }): string {
  const header = [
    'server',
    'era',
    'call',
    'req/s',
    'ratio',
    'p50 ms',
    'p99 ms',
    'cold ms',
    'RSS boot MB',
    'RSS load MB',
    'bad',
  ];
  const rows = records.map((r) => [
    r.server,
    r.era,
    r.call,
    r.reqPerSec.toFixed(0),
    `${ratio(r, records)?.toFixed(2) ?? '-'}×`,
    String(r.latencyP50Ms),
    String(r.latencyP99Ms),
    r.coldStartMs.toFixed(0),
    r.rssBootMb.toFixed(0),
    r.rssLoadedMb.toFixed(0),
    String(r.bad),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i < 3 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [
    `notes_get_note / notes://{id} / notes_summarize, ${settings.connections} connections, medians of ${settings.rounds} alternating rounds;`,
    'ratio = median over rounds of req/s over the SDK createMcpHandler (2026-07-28, same call) or the SDK sessions (2025-11-25),',
    'each round of the same run.',
    '',
    line(header),
    rule,
    ...rows.map(line),
  ].join('\n');
}

export async function writeResults(path: string, settings: object, records: readonly RunRecord[]) {
  await mkdir(dirname(path), { recursive: true });
  const document = {
    when: new Date().toISOString(),
    node: process.version,
    settings,
    runs: records.map((r) => ({ ...r, ratio: ratio(r, records) })),
  };
  await writeFile(path, `${JSON.stringify(document, null, 2)}\n`);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
