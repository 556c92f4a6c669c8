// `npm run bench`: tools/call notes_get_note under autocannon against Kiln (fast path, SDK path, 2025 sessions), the
// bare SDK (createMcpHandler on node:http and Fastify, its 2025 session wiring) and raw Fastify as the ceiling. Every
// server runs in its own child process and all stay up together; rounds alternate between them, so a noisy machine
// slows each server alike and the ratios (medians over rounds) stay comparable. Also cold start (spawn → first
// successful tools/call over HTTP) and RSS after boot and after load.
// BENCH_ROUNDS, BENCH_DURATION (s per round), BENCH_CONNECTIONS (16), BENCH_WARMUP (s) shape a run;
// BENCH_ONLY=<regexp> picks scenarios by label; BENCH_CPU_PROF=<dir> writes a CPU profile of each server process.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { coldStartSection } from './cold-start-report.js';
import { failed, type RoundResult, renderTable, summarise, writeResults } from './report.js';
import {
  answersWith,
  answersWithNote,
  BenchSetupError,
  createNote,
  envelopeCall,
  type HttpCall,
  openSession,
  probe,
  REVISION_2025_11_25,
  REVISION_2026_07_28,
  toolCall,
} from './requests.js';
import type { ServerKind } from './servers.js';

interface Scenario {
  readonly label: string;
  readonly era: typeof REVISION_2026_07_28 | typeof REVISION_2025_11_25;
  readonly kind: ServerKind;
  readonly session?: boolean;
  /** The call under load; tools/call notes_get_note unless named. */
  readonly call?: 'resources/read' | 'prompts/get';
}

const SCENARIOS: readonly Scenario[] = [
  { label: 'Kiln fast path', era: REVISION_2026_07_28, kind: 'kiln-fast' },
  { label: "Kiln plugin on a user's Fastify", era: REVISION_2026_07_28, kind: 'kiln-plugin' },
  { label: 'Kiln SDK path', era: REVISION_2026_07_28, kind: 'kiln-sdk' },
  { label: 'SDK createMcpHandler', era: REVISION_2026_07_28, kind: 'sdk-node' },
  { label: 'SDK createMcpHandler/Fastify', era: REVISION_2026_07_28, kind: 'sdk-fastify' },
  { label: 'raw Fastify (ceiling)', era: REVISION_2026_07_28, kind: 'fastify-raw' },
  { label: 'Kiln sessions', era: REVISION_2025_11_25, kind: 'kiln-stateful', session: true },
  { label: 'SDK sessions', era: REVISION_2025_11_25, kind: 'sdk-sessions', session: true },
  { label: 'Kiln fast path', era: REVISION_2026_07_28, kind: 'kiln-fast', call: 'resources/read' },
  { label: 'SDK createMcpHandler', era: REVISION_2026_07_28, kind: 'sdk-node', call: 'resources/read' },
  { label: 'Kiln fast path', era: REVISION_2026_07_28, kind: 'kiln-fast', call: 'prompts/get' },
  { label: 'SDK createMcpHandler', era: REVISION_2026_07_28, kind: 'sdk-node', call: 'prompts/get' },
];

const settings = {
  connections: positiveInt('BENCH_CONNECTIONS', 16),
  rounds: positiveInt('BENCH_ROUNDS', 3),
  durationS: positiveInt('BENCH_DURATION', 5),
  warmupS: positiveInt('BENCH_WARMUP', 2),
};
const only = new RegExp(process.env.BENCH_ONLY ?? '');
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const resultsPath = fileURLToPath(new URL('../../bench/results/latest.json', import.meta.url));

interface Running {
  readonly scenario: Scenario;
  readonly child: ChildProcess;
  readonly load: HttpCall & { url: string; method: 'POST'; idReplacement: true };
  readonly verify: (body: string) => boolean;
  readonly coldStartMs: number;
  readonly rssBootMb: number;
  readonly rounds: RoundResult[];
}

const running: Running[] = [];
try {
  // Started one after another, so each cold start is measured on an otherwise idle machine.
  for (const scenario of SCENARIOS.filter((s) => only.test(`${s.label} ${callOf(s)}`)))
    running.push(await start(scenario));
  for (const server of running) {
    process.stdout.write(`warm-up ${nameOf(server.scenario)}\n`);
    await autocannon({ ...server.load, connections: settings.connections, duration: settings.warmupS });
  }
  for (let round = 1; round <= settings.rounds; round++) {
    // Alternate the order each round, so no server always runs right after the same neighbour.
    const order = round % 2 === 1 ? running : [...running].reverse();
    for (const server of order) {
      const result = await autocannon({
        ...server.load,
        connections: settings.connections,
        duration: settings.durationS,
        verifyBody: server.verify,
      });
      server.rounds.push({
        reqPerSec: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        bad: result.non2xx + result.errors + result.timeouts + result.mismatches,
      });
      process.stdout.write(`round ${round} ${nameOf(server.scenario)}: ${result.requests.average.toFixed(0)} req/s\n`);
    }
  }
  const records = await Promise.all(
    running.map(async (server) =>
      summarise(server.scenario.label, server.scenario.era, callOf(server.scenario), server.rounds, {
        coldStartMs: server.coldStartMs,
        rssBootMb: server.rssBootMb,
        rssLoadedMb: await rssMb(server.child),
      }),
    ),
  );
  process.stdout.write(`\n${renderTable(records, settings)}\n\nResults: ${resultsPath}\n`);
  await writeResults(resultsPath, settings, records);
  // Cold start and memory against the bare SDK, over stdio and HTTP, in a section of its own (bench/cold-start.ts).
  if (only.test('cold start')) process.stdout.write(`\n${await coldStartSection()}\n`);
  const bad = records.filter(failed);
  if (bad.length > 0) {
    process.stderr.write(`\nRuns with errors or non-2xx responses: ${bad.map((r) => r.server).join(', ')}\n`);
    process.exitCode = 1;
  }
} catch (error) {
  if (!(error instanceof BenchSetupError)) throw error;
  process.stderr.write(`\nBenchmark aborted: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  for (const { child } of running) {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

async function start(scenario: Scenario): Promise<Running> {
  const began = performance.now();
  const { child, endpointUrl } = await startChild(scenario);
  const noteId = await createNote(endpointUrl);
  const coldStartMs = performance.now() - began;
  const sessionId = scenario.session ? await openSession(endpointUrl) : undefined;
  const call =
    scenario.call === 'resources/read'
      ? envelopeCall('resources/read', { uri: `notes://${noteId}` })
      : scenario.call === 'prompts/get'
        ? envelopeCall('prompts/get', { name: 'notes_summarize', arguments: { tag: 'bench' } })
        : toolCall(scenario.era, 'notes_get_note', { id: noteId }, sessionId);
  const verify = scenario.call ? answersWith('Benchmark note') : answersWithNote(noteId);
  await probe(endpointUrl, call, verify);
  const rssBootMb = await rssMb(child);
  process.stdout.write(`${nameOf(scenario)}: first tools/call after ${coldStartMs.toFixed(0)} ms\n`);
  return {
    scenario,
    child,
    verify,
    coldStartMs,
    rssBootMb,
    rounds: [],
    load: { url: endpointUrl, method: 'POST', ...call, idReplacement: true },
  };
}

async function startChild(scenario: Scenario): Promise<{ child: ChildProcess; endpointUrl: string }> {
  const profile =
    cpuProfileDir === undefined
      ? []
      : ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`, `--cpu-prof-name=${scenario.kind}.cpuprofile`];
  const entry = fileURLToPath(new URL('./serve-one.js', import.meta.url));
  const child = spawn(process.execPath, [...profile, entry, scenario.kind], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  const [line] = (await Promise.race([
    once(child.stdout!.setEncoding('utf8'), 'data'),
    once(child, 'exit').then(([code]) => {
      throw new BenchSetupError(`The ${scenario.kind} server exited with code ${code} before listening.`);
    }),
  ])) as [string];
  return { child, endpointUrl: (JSON.parse(line.split('\n')[0]!) as { endpointUrl: string }).endpointUrl };
}

/** The child's resident set, from /proc (Linux); NaN elsewhere. */
async function rssMb(child: ChildProcess): Promise<number> {
  try {
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

function callOf(scenario: Scenario): string {
  return scenario.call ?? 'tools/call';
}

function nameOf(scenario: Scenario): string {
  return `${scenario.label} ${callOf(scenario)}`;
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name}=${raw} must be a positive integer.`);
  return value;
}
