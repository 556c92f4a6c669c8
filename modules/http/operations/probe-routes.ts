// The probes beside an MCP endpoint: liveness (`/healthz`: 200 while the process serves, `degraded` while the
// session registry cannot answer, 503 once it is leaving) and readiness (`/readyz`: 200 only while the instance can
// do its work, else 503 naming each failing check). Both read one cached readiness report (readiness.ts).
import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { AppPort } from '../../../src/host/index.js';
import type { GetRoute } from '../landing-page/routes.js';
import type { SessionCounts } from '../sessions/session-registry.js';
import { Readiness, type ReadinessCheck } from './readiness.js';

export interface ProbeSource {
  readonly app: AppPort;
  /** Whether the endpoint stopped taking new work. */
  readonly closing: () => boolean;
  readonly bus: ServerEventBus;
  /** The 2025 sessions this instance serves. */
  readonly liveSessions: () => number;
  readonly sessionCounts: () => Promise<SessionCounts>;
}

export function serveProbes(
  get: GetRoute,
  paths: { readonly health: string | undefined; readonly ready: string | undefined },
  source: ProbeSource,
): void {
  const { app } = source;
  // What the last check of the registry counted anywhere (the same as here with the in-memory one); null while it
  // cannot answer.
  let clusterSessions: number | null = null;
  const leaving = () => source.closing() || app.draining;
  const checks: ReadinessCheck[] = [
    { name: 'storage', run: () => app.checkStorage() },
    {
      name: 'sessions',
      run: async () => {
        clusterSessions = null;
        clusterSessions = (await source.sessionCounts()).cluster;
      },
    },
  ];
  const bus = subscribedBus(source.bus);
  if (bus) {
    checks.push({
      name: 'bus',
      run: () => {
        if (!bus.subscribed) throw new Error('not subscribed to the change-event bus');
      },
    });
  }
  const readiness = new Readiness(
    {
      name: 'accepting',
      run: () => {
        if (leaving()) throw new Error('shutting down: draining, takes no new work');
      },
    },
    checks,
  );
  if (paths.health !== undefined) {
    get(paths.health, async (_request, reply) => {
      await readiness.report();
      const status = leaving() ? 'shutting-down' : clusterSessions === null ? 'degraded' : 'ok';
      if (leaving()) void reply.code(503);
      return {
        status,
        server: app.serverInfo,
        sessions: source.liveSessions(),
        clusterSessions,
        inFlight: app.inFlight,
      };
    });
  }
  if (paths.ready !== undefined) {
    get(paths.ready, async (_request, reply) => {
      const { ready, checks: outcomes } = await readiness.report();
      void reply.code(ready ? 200 : 503);
      return { status: ready ? 'ready' : 'not-ready', checks: outcomes };
    });
  }
}

/** The bus's subscription state, when it has one (the Redis bus); an in-process bus is always subscribed. */
function subscribedBus(bus: ServerEventBus): { readonly subscribed: boolean } | undefined {
  return 'subscribed' in bus && typeof bus.subscribed === 'boolean' ? (bus as { subscribed: boolean }) : undefined;
}
