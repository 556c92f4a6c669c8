// Rolling restart behind a real HAProxy (deploy/haproxy/haproxy.cfg, health checks on /readyz) of three Kiln
// instances on one Redis, under steady traffic from the official SDK client on both protocol versions (the drill in
// test/support/rolling-restart-drill.ts; `npm run bench:restart` prints the same figures). Restarting each instance
// in turn fails no 2026-07-28 call and no 2025 call, loses no session (each goes on with the same id on another
// instance), loses or repeats no stream event after Last-Event-ID resumption, and loses no task (each one started
// is polled to completion through the balancer). A SIGKILL of one instance fails
// only the calls that instance held, for a bounded time.
import { describe, expect, it } from 'vitest';
import { type DrillFigures, runRollingRestart } from '../support/rolling-restart-drill.js';

describe('three instances behind HAProxy, restarted one after another under traffic', () => {
  let figures: DrillFigures;

  it('restarts every instance with nothing failed, lost or repeated', { timeout: 180_000 }, async () => {
    figures = await runRollingRestart();
    const { rolling } = figures;
    expect(rolling.restarts.map((restart) => restart.exitCode)).toEqual([0, 0, 0]);
    expect(rolling.envelopeCalls).toBeGreaterThan(100);
    expect(rolling.handshakeCalls).toBeGreaterThan(100);
    expect({ failures: rolling.envelopeFailures + rolling.handshakeFailures, errors: rolling.errors }).toEqual({
      failures: 0,
      errors: [],
    });
    expect(rolling.sessionsLost).toBe(0);
    expect(rolling.eventsPublished).toBeGreaterThan(20);
    expect({
      missing: rolling.eventsMissing,
      duplicated: rolling.eventsDuplicated,
      outOfOrder: rolling.eventsOutOfOrder,
    }).toEqual({ missing: 0, duplicated: 0, outOfOrder: 0 });
    expect(rolling.instancesServing).toBe(3);
    expect(rolling.tasksCreated).toBeGreaterThan(5);
    expect({ completed: rolling.tasksCompleted, lost: rolling.tasksLost }).toEqual({
      completed: rolling.tasksCreated,
      lost: 0,
    });
  });

  it('keeps what clients see of a SIGKILL bounded: a few failed calls, within 5 s of the kill', () => {
    const { hardKill } = figures;
    expect(hardKill.envelopeCalls + hardKill.handshakeCalls).toBeGreaterThan(50);
    expect(hardKill.envelopeFailures + hardKill.handshakeFailures).toBeLessThanOrEqual(20);
    expect(hardKill.failingForMs).toBeLessThan(5_000);
  });
});
