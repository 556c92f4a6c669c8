// `npm run bench`: Kiln (notes example) against the bare SDK handler, tools/call notes_get_note under autocannon,
// per protocol era. Each server runs in its own child process; this process only generates load.
// BENCH_DURATION (s), BENCH_CONNECTIONS, BENCH_WARMUP (s) shorten a run; BENCH_ONLY=<regexp> picks runs by
// "server era"; BENCH_CPU_PROF=<dir> writes a CPU profile of each server process.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { failed, type RunRecord, renderTable, toRecord, writeResults } from './report.js';
import {
  answersWithNote,
  BenchSetupError,
  createNote,
  LEGACY,
  MODERN,
  openSession,
  probe,
  toolCall,
} from './requests.js';
import type { ServerKind } from './servers.js';

interface Scenario {
  readonly server: string;
  readonly era: string;
  readonly kind: ServerKind;
}

const KILN = 'kiln';
const SCENARIOS: readonly Scenario[] = [
  { server: KILN, era: MODERN, kind: 'kiln-stateless' },
  { server: 'sdk/node:http', era: MODERN, kind: 'sdk-node' },
  { server: 'sdk/fastify', era: MODERN, kind: 'sdk-fastify' },
  { server: KILN, era: `${LEGACY} stateless`, kind: 'kiln-stateless' },
  { server: 'sdk/node:http', era: `${LEGACY} stateless`, kind: 'sdk-node' },
  { server: 'sdk/fastify', era: `${LEGACY} stateless`, kind: 'sdk-fastify' },
  // The SDK handler serves 2025 traffic per request only, so the session run has no baseline.
  { server: KILN, era: `${LEGACY} session`, kind: 'kiln-stateful' },
];

const settings = {
  connections: positiveInt('BENCH_CONNECTIONS', 32),
  durationS: positiveInt('BENCH_DURATION', 10),
  warmupS: positiveInt('BENCH_WARMUP', 2),
};
const only = new RegExp(process.env.BENCH_ONLY ?? '');
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const resultsPath = fileURLToPath(new URL('../../bench/results/latest.json', import.meta.url));

const records: RunRecord[] = [];
try {
  for (const scenario of SCENARIOS.filter((s) => only.test(`${s.server} ${s.era}`))) records.push(await run(scenario));
} catch (error) {
  if (!(error instanceof BenchSetupError)) throw error;
  process.stderr.write(`\nBenchmark aborted: ${error.message}\n`);
  process.exit(1);
}
process.stdout.write(`\n${renderTable(records, KILN)}\n\nResults: ${resultsPath}\n`);
await writeResults(resultsPath, settings, records, KILN);
const bad = records.filter(failed);
if (bad.length > 0) {
  process.stderr.write(
    `\nRuns with errors or non-2xx responses: ${bad.map((r) => `${r.server} ${r.era}`).join(', ')}\n`,
  );
  process.exit(1);
}

async function run(scenario: Scenario): Promise<RunRecord> {
  process.stdout.write(`${scenario.server} ${scenario.era}: `);
  const { child, endpointUrl } = await startChild(scenario);
  try {
    const noteId = await createNote(endpointUrl);
    const sessionId = scenario.kind === 'kiln-stateful' ? await openSession(endpointUrl) : undefined;
    const call = toolCall(scenario.era === MODERN ? MODERN : LEGACY, 'notes_get_note', { id: noteId }, sessionId);
    const responseBytes = await probe(endpointUrl, call, noteId);
    const load = { url: endpointUrl, method: 'POST' as const, ...call, idReplacement: true };
    await autocannon({ ...load, connections: settings.connections, duration: settings.warmupS });
    const result = await autocannon({
      ...load,
      connections: settings.connections,
      duration: settings.durationS,
      verifyBody: answersWithNote(noteId),
    });
    const record = toRecord(scenario.server, scenario.era, result, responseBytes);
    process.stdout.write(`${record.reqPerSec.toFixed(0)} req/s\n`);
    return record;
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

async function startChild(scenario: Scenario): Promise<{ child: ChildProcess; endpointUrl: string }> {
  const profile =
    cpuProfileDir === undefined
      ? []
      : ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`, `--cpu-prof-name=${profileName(scenario)}.cpuprofile`];
  const entry = fileURLToPath(new URL('./serve-one.js', import.meta.url));
  const child = spawn(process.execPath, [...profile, entry, scenario.kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await Promise.race([
    once(child.stdout!.setEncoding('utf8'), 'data'),
    once(child, 'exit').then(([code]) => {
      throw new BenchSetupError(`The ${scenario.kind} server exited with code ${code} before listening.`);
    }),
  ])) as [string];
  return { child, endpointUrl: (JSON.parse(line.split('\n')[0]!) as { endpointUrl: string }).endpointUrl };
}

function profileName(scenario: Scenario): string {
  return `${scenario.server}-${scenario.era}`.replace(/[^\w.-]+/g, '_');
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name}=${raw} must be a positive integer.`);
  return value;
}
