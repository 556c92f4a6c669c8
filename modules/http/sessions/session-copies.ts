// This instance's copies of 2025 sessions, kept in step with the session registry every instance shares: a copy is
// made when a session opens here or is first asked for here (rebuilt once from its record), catches up on what the
// client changed through other instances, goes when the session ends anywhere, and is dropped when idle here.

import type { Server, ServerEvent } from '@modelcontextprotocol/server';
import { type AppPort, type ChangeSink, changeEventIdOf } from '../../../src/host/index.js';
import type { HttpConfig } from '../../../src/index.js';
import { eventTenant } from '../listen/tenant-events.js';
import type { SessionEventStore, SessionEventStoreFactory } from './session-event-store.js';
import type { SessionNotice, SessionPeers } from './session-peers.js';
import { principalTenant } from './session-principal.js';
import { isReplayedChange, type SessionChange, type SessionRegistry } from './session-registry.js';
import { SessionTransport } from './session-transport.js';

export interface LiveSession {
  readonly id: string;
  readonly transport: SessionTransport;
  readonly eventStore: SessionEventStore | undefined;
  readonly server: Server;
  /** Where change events reach this session: its GET stream, resource updates only for subscribed URIs. */
  readonly notifications: ChangeSink;
  readonly principal: string | undefined;
  /** Whose share of this instance's sessions the copy counts against (see principal-slots.ts). */
  readonly share: string;
  openRequests: number;
  /** Of those, the exchanges that end with an answer (not GET streams): shutdown lets them finish writing. */
  answering: number;
  /** When a request last used this copy, on this instance. */
  lastUsedAt: number;
  /** The record's revision this copy has replayed up to. */
  revision: number;
  /** Whether change events go out here: this instance holds (or last held) the GET stream, or opened the session. */
  deliversEvents: boolean;
  /** The instance last known to hold the GET stream (or to have opened the session), when not this one. */
  streamHolder: string | undefined;
  /** Change events waiting on the check whether the stream holder is gone, so they keep their order. */
  pendingDeliveries: Promise<void> | undefined;
  catchingUp: Promise<void> | undefined;
}

/** A copy, or why there is none. */
export type Restored = LiveSession | 'not_found' | 'session_limit' | 'principal_session_limit' | 'shutting_down';

export interface SessionCopiesOptions {
  readonly app: AppPort;
  readonly config: HttpConfig;
  readonly registry: SessionRegistry;
  readonly peers: SessionPeers;
  readonly eventStores: SessionEventStoreFactory | undefined;
  readonly now: () => number;
  readonly reportError: (error: Error) => void;
}

/** Ids this host issues; anything else names no session, and is not worth a registry lookup. */
export const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** How long shutdown waits for answers whose handlers already returned. */
const ANSWER_WRITE_GRACE_MS = 1_000;
/** How long shutdown keeps storing the events of sessions whose streams it held, until another instance claims them. */
const STREAM_HANDOVER_MS = 2_000;

export class SessionCopies {
  private readonly live = new Map<string, LiveSession>();
  /** The copies here by share key, for each principal's share of the cap. */
  private readonly byShare = new Map<string, Set<LiveSession>>();
  /** Sessions being rebuilt here, so 20 requests arriving at once rebuild one copy. */
  private readonly restoring = new Map<string, Promise<Restored>>();
  private readonly stopHearingPeers: () => void;
  closing = false;

  constructor(private readonly options: SessionCopiesOptions) {
    this.stopHearingPeers = options.peers.listen({
      notice: (notice) => this.heard(notice),
      messages: (sessionId, messages) => {
        const session = this.live.get(sessionId);
        if (session) session.transport.deliverForwarded(messages);
        else options.app.logger.debug({ sessionId }, 'A forwarded client answer arrived for a session not served here');
      },
    });
  }

  get instanceId(): string {
    return this.options.peers.instanceId;
  }

  /** Copies here, including those still being rebuilt (each holds a slot under the per-instance cap). */
  get slotsTaken(): number {
    return this.live.size + this.restoring.size;
  }

  get size(): number {
    return this.live.size;
  }

  get(id: string): LiveSession | undefined {
    return this.live.get(id);
  }

  all(): LiveSession[] {
    return [...this.live.values()];
  }

  /** A copy for a session opened or rebuilt here; `adopt` makes it the one requests find. */
  create(
    id: string,
    principal: string | undefined,
    share: string,
    deliversEvents: boolean,
    revision: number,
    streamHolder?: string,
  ): LiveSession {
    const { app, config } = this.options;
    const eventStore = this.options.eventStores?.(id);
    const transport = new SessionTransport({
      sessionId: id,
      instanceId: this.instanceId,
      eventStore,
      keepAliveMs: config.timeouts.sseKeepAliveMs,
      // Only with an event store can a closed stream be resumed, so only then is a retry worth suggesting.
      ...(eventStore ? { retryMs: config.resumability.retryMs } : {}),
      recordChange: (change) => this.recordChange(id, change),
      onSessionClosed: () => this.endRecord(id),
    });
    const server = app.createServer('handshake', { exposesSessionId: true });
    const session: LiveSession = {
      id,
      transport,
      eventStore,
      server,
      // An authenticated session hears only its own tenant's resource events (and the unscoped ones).
      notifications: app.sinkFor(server, 'handshake', principalTenant(principal)),
      principal,
      share,
      openRequests: 0,
      answering: 0,
      lastUsedAt: this.options.now(),
      revision,
      deliversEvents,
      streamHolder,
      pendingDeliveries: undefined,
      catchingUp: undefined,
    };
    // Set before the server connects, which chains its own close handling after this one.
    transport.onclose = () => void this.drop(session);
    transport.onerror = (error) => this.options.reportError(error);
    return session;
  }

  adopt(session: LiveSession): void {
    this.live.set(session.id, session);
    let held = this.byShare.get(session.share);
    if (!held) {
      held = new Set();
      this.byShare.set(session.share, held);
    }
    held.add(session);
  }

  /** Copies here counted against `share`. */
  heldBy(share: string): number {
    return this.byShare.get(share)?.size ?? 0;
  }

  /**
   * Makes room under `share`'s share of the cap: when it holds `limit` copies, its own oldest idle one (no request or
   * stream open) goes, ended everywhere (`end`) or only dropped here. False when all of them are busy. Never touches
   * another share's copies.
   */
  async makeRoom(share: string, limit: number, how: 'end' | 'drop'): Promise<boolean> {
    const held = this.byShare.get(share);
    if (!held || held.size < limit) return true;
    let oldest: LiveSession | undefined;
    for (const session of held) {
      if (session.openRequests === 0 && (!oldest || session.lastUsedAt < oldest.lastUsedAt)) oldest = session;
    }
    if (!oldest) return false;
    this.options.app.logger.info(
      { sessionId: oldest.id, held: held.size, limit },
      how === 'end'
        ? "Ended the caller's oldest idle session: it holds its share of this instance's sessions"
        : "Dropped the caller's oldest idle session copy here: it holds its share of this instance's sessions",
    );
    // Dropped first, at once: a burst of requests from the same caller must not all pick this one.
    const dropped = this.drop(oldest);
    if (how === 'end') await this.endRecord(oldest.id);
    await dropped;
    return true;
  }

  /** This instance's copy of a session recorded elsewhere, rebuilt once however many requests ask at the same time. */
  restore(id: string, share: string): Promise<Restored> {
    let restoring = this.restoring.get(id);
    if (!restoring) {
      restoring = this.rebuild(id, share).finally(() => this.restoring.delete(id));
      this.restoring.set(id, restoring);
    }
    return restoring;
  }

  /** Marks the session seen; false when it ended elsewhere (the copy here is dropped). Catches up on changes. */
  async refresh(session: LiveSession): Promise<boolean> {
    session.lastUsedAt = this.options.now();
    const revision = await this.options.registry.touch(session.id, session.lastUsedAt, this.instanceId);
    if (revision === undefined) {
      await this.drop(session);
      return false;
    }
    if (revision > session.revision) await this.catchUp(session);
    return true;
  }

  /** A GET stream opened here: change events for the session go out from this instance from now on. */
  claimEventStream(session: LiveSession): void {
    session.deliversEvents = true;
    session.streamHolder = this.instanceId;
    this.options.registry
      .update(session.id, { kind: 'streamHolder', instance: this.instanceId })
      .then(() => this.options.peers.announce({ kind: 'stream', sessionId: session.id, instance: this.instanceId }))
      .catch((error: unknown) => this.warn(error, session.id));
  }

  /**
   * Change events go out from the copy that delivers them. A copy that does not, asks whether the stream holder is
   * gone (killed, say): then it takes over, so its frames reach the event store and a client resuming anywhere with
   * Last-Event-ID hears them; otherwise they would be lost between the crash and the client's reconnect.
   */
  deliver(event: ServerEvent): void {
    // An event with an id (a bus spanning instances) is stored by every copy: the session's event store keeps it
    // once, under one event id, so however the stream moves between instances, none is lost or heard twice.
    if (changeEventIdOf(event) !== undefined) {
      for (const session of this.live.values()) {
        if (session.eventStore || session.deliversEvents) notify(session.notifications, event);
      }
      return;
    }
    const holderGone = new Map<string, Promise<boolean>>();
    for (const session of this.live.values()) {
      const holder = session.streamHolder;
      if (session.deliversEvents && !session.pendingDeliveries) notify(session.notifications, event);
      else if (session.pendingDeliveries || (holder !== undefined && holder !== this.instanceId)) {
        this.deliverOnceHolderChecked(session, event, holderGone);
      }
    }
  }

  /** Ends a session everywhere: its record, its stored frames, every instance's copy. */
  async end(id: string): Promise<void> {
    await this.endRecord(id);
    const session = this.live.get(id);
    if (session) await this.drop(session);
  }

  /** After this instance's removal of the record took effect: the stored frames go, other instances hear of it. */
  async cleanUpEnded(id: string): Promise<void> {
    await (this.live.get(id)?.eventStore ?? this.options.eventStores?.(id))?.clear();
    await this.options.peers.announce({ kind: 'ended', sessionId: id });
  }

  /** Drops this instance's copy; the record, and other instances' copies, stay. */
  async drop(session: LiveSession): Promise<void> {
    if (this.live.get(session.id) !== session) return;
    this.live.delete(session.id);
    const held = this.byShare.get(session.share);
    held?.delete(session);
    if (held?.size === 0) this.byShare.delete(session.share);
    await session.transport.close().catch(() => undefined);
    await this.options.registry
      .release(session.id, this.instanceId)
      .catch((error: unknown) => this.warn(error, session.id));
  }

  /** Closes every copy here (shutdown); the sessions live on for the other instances. */
  async closeAll(): Promise<void> {
    this.closing = true;
    await this.answersWritten(ANSWER_WRITE_GRACE_MS);
    await this.handOverStreams(STREAM_HANDOVER_MS);
    this.stopHearingPeers();
    await Promise.allSettled(this.all().map((session) => this.drop(session)));
  }

  /**
   * Closes the GET streams held here, so their clients reconnect (and resume) on another instance, and keeps storing
   * each session's events until another instance has claimed its stream, or `graceMs` passed: the session's event
   * store keeps an event once whoever stores it, and this way none falls between the two instances.
   */
  private async handOverStreams(graceMs: number): Promise<void> {
    if (!this.options.peers.spansInstances) return;
    const held = this.all().filter((session) => session.eventStore && session.streamHolder === this.instanceId);
    if (held.length === 0) return;
    for (const session of held) session.transport.closeEventStream();
    const deadline = performance.now() + graceMs;
    const claimed = (session: LiveSession) => session.streamHolder !== this.instanceId || !this.live.has(session.id);
    while (!held.every(claimed) && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
  }

  warn(error: unknown, sessionId: string | undefined, message = 'Session registry call failed'): void {
    this.options.app.logger.warning({ err: error, ...(sessionId ? { sessionId } : {}) }, message);
  }

  private async rebuild(id: string, share: string): Promise<Restored> {
    const { registry, config, app } = this.options;
    if (this.closing) return 'shutting_down';
    const record = SESSION_ID.test(id) ? await registry.get(id) : undefined;
    if (!record) return 'not_found';
    // `restoring` holds this rebuild too by now.
    if (this.slotsTaken > config.maxSessions) return 'session_limit';
    // A copy here counts against the caller's share too; making room drops only a copy, the session lives on.
    if (!(await this.makeRoom(share, config.maxSessionsPerPrincipal, 'drop'))) return 'principal_session_limit';
    const startedAt = performance.now();
    const holder = record.streamHolder;
    const session = this.create(id, record.principal, share, holder === this.instanceId, record.revision, holder);
    await session.server.connect(session.transport);
    try {
      await session.transport.restore(record);
      // The answer to the replayed initialize may be an error inside a 200 stream; a handled one leaves these set.
      if (session.server.getClientCapabilities() === undefined) {
        throw new Error(`Replaying initialize of session ${id} did not initialize it`);
      }
    } catch (error) {
      await session.transport.close().catch(() => undefined);
      throw error;
    }
    this.adopt(session);
    if (!(await this.refresh(session))) return 'not_found';
    const ms = Math.round((performance.now() - startedAt) * 10) / 10;
    app.logger.info({ sessionId: id, ms }, 'Rehydrated MCP session');
    return session;
  }

  private deliverOnceHolderChecked(
    session: LiveSession,
    event: ServerEvent,
    holderGone: Map<string, Promise<boolean>>,
  ): void {
    const holder = session.streamHolder;
    let gone: Promise<boolean> = Promise.resolve(false);
    if (!session.deliversEvents && holder !== undefined && holder !== this.instanceId) {
      gone = holderGone.get(holder) ?? this.options.peers.isGone(holder).catch(() => false);
      holderGone.set(holder, gone);
    }
    const delivered: Promise<void> = (session.pendingDeliveries ?? Promise.resolve())
      .then(async () => {
        if (!session.deliversEvents && holder !== undefined && session.streamHolder === holder && (await gone)) {
          await this.takeOverStream(session, holder);
        }
        if (session.deliversEvents) notify(session.notifications, event);
      })
      .finally(() => {
        if (session.pendingDeliveries === delivered) session.pendingDeliveries = undefined;
      });
    session.pendingDeliveries = delivered;
  }

  /**
   * The stream holder is gone: of the instances with a copy, the one whose takeover the registry records delivers
   * from now on (so each event is stored once for a client resuming anywhere); the others learn the new holder.
   */
  private async takeOverStream(session: LiveSession, gone: string): Promise<void> {
    const holder = await this.options.registry
      .takeOverStream(session.id, gone, this.instanceId)
      .catch((error: unknown) => this.warn(error, session.id, 'Could not take over the stream of a session'));
    if (holder === undefined || session.streamHolder !== gone) return;
    session.streamHolder = holder;
    if (holder !== this.instanceId) return;
    session.deliversEvents = true;
    this.options.app.logger.info(
      { sessionId: session.id, gone },
      'Delivering change events of a session whose stream holder is gone',
    );
    this.options.peers
      .announce({ kind: 'stream', sessionId: session.id, instance: this.instanceId })
      .catch((error: unknown) => this.warn(error, session.id));
  }

  private catchUp(session: LiveSession): Promise<void> {
    session.catchingUp ??= (async () => {
      const record = await this.options.registry.get(session.id);
      if (!record) return;
      await session.transport.catchUp(record);
      session.revision = Math.max(session.revision, record.revision);
    })().finally(() => {
      session.catchingUp = undefined;
    });
    return session.catchingUp;
  }

  /** Records what a request changed before its answer leaves; a failure is logged, the answer still goes out. */
  private async recordChange(id: string, change: SessionChange): Promise<void> {
    try {
      const revision = await this.options.registry.update(id, change);
      if (revision === undefined || !isReplayedChange(change)) return;
      const session = this.live.get(id);
      // A gap means another instance changed the session meanwhile: the next refresh replays that change here.
      if (session && revision === session.revision + 1) session.revision = revision;
      await this.options.peers.announce({ kind: 'changed', sessionId: id });
    } catch (error) {
      this.warn(error, id, `Could not record ${change.kind} for the session; other instances may not see it`);
    }
  }

  /** Removes the record; the instance whose removal took effect cleans up after the session. */
  private async endRecord(id: string): Promise<void> {
    if (await this.options.registry.remove(id)) await this.cleanUpEnded(id);
  }

  private heard(notice: SessionNotice): void {
    const session = this.live.get(notice.sessionId);
    if (!session) return;
    if (notice.kind === 'ended') void this.drop(session);
    else if (notice.kind === 'changed') this.catchUp(session).catch((error: unknown) => this.warn(error, session.id));
    else if (notice.instance !== this.instanceId) {
      session.deliversEvents = false;
      session.streamHolder = notice.instance;
    }
  }

  /**
   * The app's drain ends when handlers return, a moment before the SDK has written their answers (an event store
   * write may come first): closing a transport then would abort them. Waits for those answers, briefly.
   */
  private async answersWritten(graceMs: number): Promise<void> {
    const deadline = performance.now() + graceMs;
    const writing = () => this.all().some((session) => session.answering > 0);
    while (writing() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function notify(notifications: ChangeSink, event: ServerEvent): void {
  const id = changeEventIdOf(event);
  if (event.kind === 'tools_list_changed') notifications.toolsChanged(id);
  else if (event.kind === 'prompts_list_changed') notifications.promptsChanged(id);
  else if (event.kind === 'resources_list_changed') notifications.resourcesChanged(eventTenant(event), id);
  else if (event.kind === 'resource_updated') notifications.resourceUpdated(event.uri, eventTenant(event), id);
  // Kiln's task_status events are for 2026-07-28 listen streams only.
}
