// `npm run bench:restart`: the rolling-restart drill (Redis, three Kiln instances, a real HAProxy with the recipe in
// deploy/haproxy, official SDK clients on both protocol versions) and what clients saw, as a table. The test
// test/deploy/rolling-restart.test.ts asserts the same figures.
import { runRollingRestart } from '../test/support/rolling-restart-drill.js';

const figures = await runRollingRestart({ log: (line) => console.log(line) });
const { rolling, hardKill } = figures;
const rows: [string, string][] = [
  [
    'restarts (exit code, stopped in, serving again after)',
    rolling.restarts.map((r) => `${r.exitCode}, ${r.stopMs} ms, ${r.backMs} ms`).join('; '),
  ],
  ['2026-07-28 calls during the restarts (failed)', `${rolling.envelopeCalls} (${rolling.envelopeFailures})`],
  ['2025-11-25 session calls during the restarts (failed)', `${rolling.handshakeCalls} (${rolling.handshakeFailures})`],
  ['2025 sessions kept / lost', `${rolling.sessions - rolling.sessionsLost} / ${rolling.sessionsLost}`],
  [
    'stream events published; missing, duplicated, out of order',
    `${rolling.eventsPublished}; ${rolling.eventsMissing}, ${rolling.eventsDuplicated}, ${rolling.eventsOutOfOrder}`,
  ],
  [
    'SIGKILL of one instance: calls (failed)',
    `${hardKill.envelopeCalls + hardKill.handshakeCalls} (${hardKill.envelopeFailures + hardKill.handshakeFailures})`,
  ],
  ['SIGKILL: failures seen for', `${hardKill.failingForMs} ms after the kill`],
];
console.log('\n| what | figure |\n|---|---|');
for (const [what, figure] of rows) console.log(`| ${what} | ${figure} |`);
if (rolling.errors.length + hardKill.errors.length > 0) {
  console.log('\nerrors clients saw:');
  for (const error of [...rolling.errors, ...hardKill.errors]) console.log(`  ${error}`);
}
