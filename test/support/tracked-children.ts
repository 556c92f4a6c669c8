// Child processes the tests started (Redis servers, Kiln instances): a test run that crashes must not leave them
// behind, and killing our own children on exit is enough for that. Nothing else is ever signalled.
import type { ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

export function trackChild(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const running of live) running.kill('SIGKILL');
  });
}
