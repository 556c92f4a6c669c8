// Idle eviction of 2025 sessions, run by every instance on a timer. Sessions with a request or stream open here are
// in use and marked seen, which keeps them alive for every instance; a session stale everywhere is removed by
// whichever instance's removal takes effect, which cleans up after it; a copy idle here is dropped even while other
// instances keep the session busy.
import type { Logger } from '../../../src/index.js';
import type { SessionCopies } from './session-copies.js';
import type { SessionRegistry } from './session-registry.js';

export async function sweepIdleSessions(
  copies: SessionCopies,
  registry: SessionRegistry,
  cutoff: number,
  logger: Logger,
): Promise<void> {
  for (const session of copies.all()) {
    if (session.openRequests > 0) await copies.refresh(session);
  }
  for (const id of await registry.staleSince(cutoff)) {
    if ((copies.get(id)?.openRequests ?? 0) > 0) continue;
    if ((await registry.evictIfStale(id, cutoff)) !== 'evicted') continue;
    logger.info({ sessionId: id }, 'Evicting idle MCP session');
    await copies.cleanUpEnded(id);
    const session = copies.get(id);
    if (session) await copies.drop(session);
  }
  for (const session of copies.all()) {
    if (session.openRequests === 0 && session.lastUsedAt < cutoff) await copies.drop(session);
  }
}
