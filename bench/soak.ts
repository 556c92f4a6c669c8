// `npm run soak`: the notes example over HTTP under sustained mixed traffic of both eras, with the server's RSS
// sampled every second. Fails (exit 1) on any error or non-2xx response, or when RSS at the end is more than
// SOAK_MAX_GROWTH percent above RSS after warm-up. SOAK_SECONDS (60), SOAK_CONNECTIONS (32), SOAK_WARMUP (a quarter of the run, at most 20).
import autocannon from 'autocannon';
import { failures, renderRssCurve, renderSoak, type SoakSettings } from './soak-report.js';
import { sampleRss } from './soak-rss.js';
import { startSoakServer } from './soak-server.js';
import { answered, paceWrites, readMix } from './soak-traffic.js';

const seconds = positiveInt('SOAK_SECONDS', 60);
const settings: SoakSettings = {
  seconds,
  connections: positiveInt('SOAK_CONNECTIONS', 32),
  // Heap and JIT settle over the first 15-20 s at full load; RSS before that is growth, not leakage.
  warmupS: positiveInt('SOAK_WARMUP', Math.min(20, Math.max(1, Math.floor(seconds / 4)))),
  maxGrowthPct: positiveInt('SOAK_MAX_GROWTH', 10),
};
if (settings.warmupS + 10 > settings.seconds) {
  throw new Error(
    `SOAK_SECONDS=${seconds} leaves no room after a ${settings.warmupS} s warm-up; use at least ${settings.warmupS + 10}.`,
  );
}

const server = await startSoakServer();
process.stdout.write(`Soaking ${server.endpointUrl} (pid ${server.pid}) for ${seconds} s...\n`);
const rss = sampleRss(server.pid);
try {
  const requests = await readMix(server.endpointUrl);
  const writes = paceWrites(server.endpointUrl);
  const load = await autocannon({
    url: server.endpointUrl,
    method: 'POST',
    requests,
    idReplacement: true,
    connections: settings.connections,
    duration: seconds,
    verifyBody: answered,
  });
  await writes.stop();
  rss.stop();
  const health = (await (await fetch(server.healthUrl)).json()) as { sessions: number; inFlight: number };
  const outcome = {
    settings,
    load,
    notesCreated: writes.notesCreated,
    sessionsChurned: writes.sessionsChurned,
    writeFailures: writes.failures,
    rss: rss.samples,
    health,
  };
  process.stdout.write(`\n${renderSoak(outcome)}\n\nRSS (MiB) every 5 s: ${renderRssCurve(rss.samples)}\n`);
  const problems = failures(outcome);
  if (problems.length > 0) {
    process.stderr.write(`\nSoak failed:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write('\nSoak passed: no errors, RSS flat.\n');
  }
} finally {
  rss.stop();
  await server.stop();
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name}=${raw} must be a positive integer.`);
  return value;
}
