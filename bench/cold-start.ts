// Cold start and memory against the SDK: spawn → first successful tools/call (through the official client, the way a
// client starts a stdio server per session or waits for an HTTP server), over stdio and HTTP, for a bare SDK server
// (bench/cold-sdk-server.ts: the SDK's stdio entry, createMcpHandler on node:http, and the same behind the SDK's
// Fastify adapter) and the notes example as users run it and as `kiln bundle` bundles it; RSS once each start has
// answered, and after a spell of load. Runs alternate between the servers, the first run of each is a discarded
// warm-up (file cache), medians.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once, setMaxListeners } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { meanRss, readRss, sampleRss } from './soak-rss.js';

export type ColdTransport = 'stdio' | 'http';

export interface ColdTarget {
  readonly server: 'bare SDK' | 'bare SDK on Fastify' | 'Kiln notes' | 'Kiln notes, kiln bundle';
  readonly transport: ColdTransport;
  readonly entry: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface ColdSettings {
  /** Measured runs per target (after one discarded warm-up). */
  readonly runs: number;
  /** Seconds of tools/call load before the loaded RSS is read. */
  readonly loadS: number;
  /** Calls in flight during the load. */
  readonly concurrency: number;
}

export interface ColdRecord {
  readonly server: ColdTarget['server'];
  readonly transport: ColdTransport;
  /** Spawn → first successful tools/call, each measured run. */
  readonly coldMs: readonly number[];
  readonly coldMedianMs: number;
  /** The server process's CPU time (user + system) at its first answer, median: steadier than wall time on a busy machine. */
  readonly cpuMedianMs: number;
  readonly rssBootMb: number;
  readonly rssLoadedMb: number;
  readonly loadCallsPerSec: number;
  readonly loadFailures: number;
}

// The SDK client's StreamableHTTPClientTransport (2.4) joins each request's signal to its own long-lived one with a
// listener it removes only on abort, so a client making thousands of calls trips Node's leak warning once per call
// past 1,500. The leak is the load generator's (this process), not the servers', so the warning is raised out of reach.
setMaxListeners(1_000_000);

const dist = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The targets; bundles the notes example with `kiln bundle` into dist/bench/notes-bundle first. `Kiln notes` runs as
 * users run it: tsc's output of the example importing `mcp-kiln`, which resolves to the package's ES module build
 * (dist/pkg/esm), every dependency from node_modules. `Kiln notes, kiln bundle` is the `kiln bundle` output of the
 * same entry, the one-file option a user can choose.
 */
export function coldTargets(): ColdTarget[] {
  const sdk = dist('./cold-sdk-server.js');
  const kiln = dist('../examples/notes/main.js');
  const bundle = bundleNotes(kiln);
  return (['stdio', 'http'] as const).flatMap((transport): ColdTarget[] => {
    const env = { MCP_TRANSPORT_TYPE: transport, MCP_HTTP_PORT: '0' };
    return [
      { server: 'bare SDK', transport, entry: sdk, args: [transport], env: {} },
      ...(transport === 'http'
        ? [{ server: 'bare SDK on Fastify', transport, entry: sdk, args: ['fastify'], env: {} } as const]
        : []),
      { server: 'Kiln notes', transport, entry: kiln, args: [], env },
      { server: 'Kiln notes, kiln bundle', transport, entry: bundle, args: [], env },
    ];
  });
}

/** `kiln bundle` of the notes example into dist/bench/notes-bundle; returns the bundle's entry. */
function bundleNotes(entry: string): string {
  const bundleDir = dist('./notes-bundle');
  // kiln bundle writes into its folder without emptying it; a fresh one keeps chunks of an earlier build out.
  rmSync(bundleDir, { recursive: true, force: true });
  execFileSync(process.execPath, [dist('../src/cli/main.js'), 'bundle', entry, '--out-dir', bundleDir], {
    stdio: 'ignore',
  });
  return `${bundleDir}/main.mjs`;
}

export async function measureColdStart(
  settings: ColdSettings,
  targets: readonly ColdTarget[] = coldTargets(),
  progress: (line: string) => void = () => {},
): Promise<ColdRecord[]> {
  const coldMs = new Map<ColdTarget, number[]>(targets.map((target) => [target, []]));
  const cpuMs = new Map<ColdTarget, number[]>(targets.map((target) => [target, []]));
  const bootRss = new Map<ColdTarget, number[]>(targets.map((target) => [target, []]));
  for (let run = 0; run <= settings.runs; run++) {
    for (const target of run % 2 === 0 ? targets : [...targets].reverse()) {
      const started = await launch(target);
      // Once the timed part is over: a process holds ±1 MB more or less from one start to the next, so the boot
      // figure is the median over every measured start, not one process's reading.
      const rssBootMb = await rssAfterBoot(started.pid);
      await started.close();
      if (run > 0) {
        coldMs.get(target)!.push(started.coldMs);
        cpuMs.get(target)!.push(started.cpuMs);
        bootRss.get(target)!.push(rssBootMb);
      }
      progress(`cold start ${run === 0 ? 'warm-up' : `run ${run}`} ${label(target)}: ${started.coldMs.toFixed(0)} ms`);
    }
  }
  const records: ColdRecord[] = [];
  for (const target of targets) {
    const started = await launch(target);
    try {
      const loaded = await loadWithRss(started, settings);
      const runs = coldMs.get(target)!;
      const memory = { rssBootMb: median(bootRss.get(target)!), ...loaded };
      records.push({
        server: target.server,
        transport: target.transport,
        coldMs: runs,
        coldMedianMs: median(runs),
        cpuMedianMs: median(cpuMs.get(target)!),
        ...memory,
      });
      progress(
        `RSS ${label(target)}: ${memory.rssBootMb.toFixed(1)} MB boot, ${memory.rssLoadedMb.toFixed(1)} MB loaded`,
      );
    } finally {
      await started.close();
    }
  }
  return records;
}

export function label(target: Pick<ColdTarget, 'server' | 'transport'>): string {
  return `${target.server} (${target.transport})`;
}

interface Started {
  readonly client: Client;
  readonly pid: number;
  readonly coldMs: number;
  readonly cpuMs: number;
  readonly noteId: string;
  close(): Promise<void>;
}

async function launch(target: ColdTarget): Promise<Started> {
  const env = { ...getDefaultEnvironment(), ...target.env };
  const client = new Client({ name: 'kiln-cold-start', version: '0.1.0' });
  const began = performance.now();
  if (target.transport === 'stdio') {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [target.entry, ...target.args],
      env,
      stderr: 'ignore',
    });
    await client.connect(transport);
    const noteId = await createNote(client, target);
    const coldMs = performance.now() - began;
    const pid = transport.pid!;
    return { client, pid, coldMs, cpuMs: cpuTimeMs(pid), noteId, close: () => client.close() };
  }
  const child = spawn(process.execPath, [target.entry, ...target.args], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const endpoint = await endpointOf(child, target);
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
    const noteId = await createNote(client, target);
    const coldMs = performance.now() - began;
    const cpuMs = cpuTimeMs(child.pid!);
    const close = async () => {
      await client.close();
      child.kill('SIGTERM');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    };
    return { client, pid: child.pid!, coldMs, cpuMs, noteId, close };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/** Reads the child's stdout until it names its MCP endpoint (Kiln's banner line; the baseline prints the same). */
async function endpointOf(child: ChildProcess, target: ColdTarget): Promise<string> {
  let seen = '';
  const stdout = child.stdout!.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    const onData = (chunk: string) => {
      seen += chunk;
      const match = /MCP endpoint: (\S+)/.exec(seen);
      if (!match) return;
      stdout.off('data', onData);
      stdout.resume();
      resolve(match[1]!);
    };
    stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${label(target)} exited with code ${code} before listening.`)));
  });
}

async function createNote(client: Client, target: ColdTarget): Promise<string> {
  const result = await client.callTool({
    name: 'notes_create_note',
    arguments: { title: 'Cold start', body: 'Written by the first tools/call.', tags: ['bench'] },
  });
  const id = (result.structuredContent as { id?: unknown } | undefined)?.id;
  if (result.isError || typeof id !== 'string') {
    throw new Error(`${label(target)}: the first tools/call did not create a note: ${JSON.stringify(result)}`);
  }
  return id;
}

/** How long a server is left idle after its first answer before its boot RSS is read. */
export const BOOT_SETTLE_MS = 300;

/** A server's RSS once it has answered its first call and been idle BOOT_SETTLE_MS. */
async function rssAfterBoot(pid: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, BOOT_SETTLE_MS));
  return readRss(pid);
}

/** RSS over the last 5 s of `concurrency` notes_get_note calls in flight for `loadS` seconds. */
async function loadWithRss(started: Started, settings: ColdSettings) {
  const rss = sampleRss(started.pid, 500);
  await new Promise((resolve) => setTimeout(resolve, 600));
  const loadStarted = rss.samples.at(-1)?.atS ?? 0;
  const deadline = performance.now() + settings.loadS * 1000;
  let calls = 0;
  let failures = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const result = await started.client
        .callTool({ name: 'notes_get_note', arguments: { id: started.noteId } })
        .catch(() => ({ isError: true }));
      if (result.isError) failures++;
      else calls++;
    }
  };
  await Promise.all(Array.from({ length: settings.concurrency }, worker));
  await new Promise((resolve) => setTimeout(resolve, 600));
  rss.stop();
  // The last five seconds of load, so one sample taken mid-collection does not decide the figure.
  const end = loadStarted + settings.loadS;
  return {
    rssLoadedMb: meanRss(rss.samples, Math.max(loadStarted, end - 5), end + 1),
    loadCallsPerSec: calls / settings.loadS,
    loadFailures: failures,
  };
}

/** A process's user + system CPU time from /proc (Linux, in clock ticks of 10 ms); NaN elsewhere. */
function cpuTimeMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
