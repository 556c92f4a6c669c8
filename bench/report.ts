// The benchmark's report: one row per (server, era) run, a Kiln/SDK throughput ratio per era, and the JSON record.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Result } from 'autocannon';

export interface RunRecord {
  readonly server: string;
  readonly era: string;
  readonly reqPerSec: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly requests: number;
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  /** 2xx responses whose body did not carry the note (or carried an error). */
  readonly mismatches: number;
  readonly responseBytes: number;
}

export function toRecord(server: string, era: string, result: Result, responseBytes: number): RunRecord {
  return {
    server,
    era,
    reqPerSec: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    mismatches: result.mismatches,
    responseBytes,
  };
}

export function failed(record: RunRecord): boolean {
  return record.non2xx + record.errors + record.mismatches > 0;
}

/** Kiln's req/s over each baseline's, per era where both ran. */
export function ratios(
  records: readonly RunRecord[],
  kiln: string,
): { era: string; baseline: string; ratio: number }[] {
  return records
    .filter((r) => r.server !== kiln)
    .flatMap((baseline) => {
      const ours = records.find((r) => r.server === kiln && r.era === baseline.era);
      return ours ? [{ era: baseline.era, baseline: baseline.server, ratio: ours.reqPerSec / baseline.reqPerSec }] : [];
    });
}

export function renderTable(records: readonly RunRecord[], kiln: string): string {
  const header = ['server', 'era', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'mismatch', 'bytes'];
  const rows = records.map((r) => [
    r.server,
    r.era,
    r.reqPerSec.toFixed(0),
    String(r.latencyP50Ms),
    String(r.latencyP99Ms),
    String(r.non2xx),
    String(r.errors),
    String(r.mismatches),
    String(r.responseBytes),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const ratioLines = ratios(records, kiln).map(
    (r) => `  ${r.era.padEnd(20)} ${kiln} / ${r.baseline.padEnd(14)} ${r.ratio.toFixed(2)}`,
  );
  return [line(header), ...rows.map(line), '', 'Throughput ratio (req/s):', ...ratioLines].join('\n');
}

export async function writeResults(path: string, settings: object, records: readonly RunRecord[], kiln: string) {
  await mkdir(dirname(path), { recursive: true });
  const document = {
    when: new Date().toISOString(),
    node: process.version,
    settings,
    runs: records,
    ratios: ratios(records, kiln),
  };
  await writeFile(path, `${JSON.stringify(document, null, 2)}\n`);
}
