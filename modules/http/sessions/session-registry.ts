// What Kiln knows about each 2025 session, kept serialisable so any instance can rebuild the session from it: the
// stored initialize, what the client changed since (log level, subscriptions), who may use it, and which instance
// holds its event stream. The live transport and protocol server stay in the processes serving the session.
import type {
  ClientCapabilities,
  Implementation,
  InitializeRequestParams,
  LoggingLevel,
} from '@modelcontextprotocol/server';

export interface SessionRecord {
  readonly id: string;
  readonly createdAt: number;
  readonly lastSeenAt: number;
  /** The initialize request's params as the client sent them; replaying them rebuilds the session. */
  readonly initialize: InitializeRequestParams;
  /** The version the server answered initialize with; absent until it answered. */
  readonly protocolVersion?: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation;
  /** Set by logging/setLevel. */
  readonly logLevel?: LoggingLevel;
  /** URIs subscribed with resources/subscribe, in no particular order. */
  readonly subscriptions: readonly string[];
  /** The instance that last opened the session's GET stream (or opened the session): it delivers change events. */
  readonly streamHolder?: string;
  /** Who opened the session, as an opaque string auth fills in; a request by anyone else gets 404. */
  readonly principal?: string;
  /** Counts changes a rebuilt session must replay (log level, subscriptions), so a stale copy can tell. */
  readonly revision: number;
}

/** The replayable or routing state a request changed. */
export type SessionChange =
  | { readonly kind: 'answered'; readonly protocolVersion: string }
  | { readonly kind: 'logLevel'; readonly level: LoggingLevel }
  | { readonly kind: 'subscribe'; readonly uri: string }
  | { readonly kind: 'unsubscribe'; readonly uri: string }
  | { readonly kind: 'streamHolder'; readonly instance: string };

/**
 * Changes a rebuilt session has to replay; they bump the record's revision. The others are bookkeeping and leave
 * it alone. Every registry keeps this rule.
 */
export const isReplayedChange = (change: SessionChange): boolean =>
  change.kind === 'logLevel' || change.kind === 'subscribe' || change.kind === 'unsubscribe';

export type StaleEviction = 'evicted' | 'gone' | 'fresh';

export interface SessionCounts {
  /** Sessions the given instance serves right now. */
  readonly local: number;
  /** Sessions recorded anywhere. */
  readonly cluster: number;
}

export interface SessionRegistry {
  add(record: SessionRecord): Promise<void>;
  get(id: string): Promise<SessionRecord | undefined>;
  /**
   * Marks the session seen at `at` by `instance`; resolves with its revision, or undefined when the record is gone
   * (ended or evicted, possibly by another instance): then the caller's copy must go too.
   */
  touch(id: string, at: number, instance: string): Promise<number | undefined>;
  /** Applies a change; resolves with the revision after it, or undefined when the record is gone. */
  update(id: string, change: SessionChange): Promise<number | undefined>;
  /**
   * Makes `to` the session's stream holder only if `from` still is, atomically: of the instances that find the holder
   * gone, exactly one takes over delivering its events. Resolves with the holder after the attempt (`to` for the one
   * that won), or undefined when the record is gone.
   */
  takeOverStream(id: string, from: string, to: string): Promise<string | undefined>;
  /** `instance` no longer serves the session (its copy was dropped); the record stays. */
  release(id: string, instance: string): Promise<void>;
  /** Ends the session; true for the one caller whose removal took effect, which cleans up after it. */
  remove(id: string): Promise<boolean>;
  /** Candidates for eviction: sessions last seen before `cutoff` (possibly touched since). */
  staleSince(cutoff: number): Promise<string[]>;
  /** Removes the session only if it still was not seen since `cutoff`, atomically; 'evicted' for the winner. */
  evictIfStale(id: string, cutoff: number): Promise<StaleEviction>;
  count(instance: string): Promise<SessionCounts>;
}

/** Sessions of one process: every instance is this one, so local and cluster-wide counts agree. */
export class InMemorySessionRegistry implements SessionRegistry {
  private readonly records = new Map<string, SessionRecord>();
  private readonly servedBy = new Map<string, Set<string>>();

  async add(record: SessionRecord): Promise<void> {
    this.records.set(record.id, copyRecord(record));
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const record = this.records.get(id);
    return record && copyRecord(record);
  }

  async touch(id: string, at: number, instance: string): Promise<number | undefined> {
    const record = this.records.get(id);
    if (!record) return undefined;
    // A request ending late must not make a session look older than a later one left it. Records here are this
    // registry's own copies (get hands out clones), so the one field every request moves is set in place.
    (record as { lastSeenAt: number }).lastSeenAt = Math.max(record.lastSeenAt, at);
    this.served(instance).add(id);
    return record.revision;
  }

  async update(id: string, change: SessionChange): Promise<number | undefined> {
    const record = this.records.get(id);
    if (!record) return undefined;
    const changed = applyChange(record, change);
    this.records.set(id, changed);
    return changed.revision;
  }

  async takeOverStream(id: string, from: string, to: string): Promise<string | undefined> {
    const record = this.records.get(id);
    if (!record) return undefined;
    if (record.streamHolder === from) this.records.set(id, { ...record, streamHolder: to });
    return this.records.get(id)?.streamHolder;
  }

  async release(id: string, instance: string): Promise<void> {
    this.servedBy.get(instance)?.delete(id);
  }

  async remove(id: string): Promise<boolean> {
    for (const ids of this.servedBy.values()) ids.delete(id);
    return this.records.delete(id);
  }

  async staleSince(cutoff: number): Promise<string[]> {
    return [...this.records.values()].filter((r) => r.lastSeenAt < cutoff).map((r) => r.id);
  }

  async evictIfStale(id: string, cutoff: number): Promise<StaleEviction> {
    const record = this.records.get(id);
    if (!record) return 'gone';
    if (record.lastSeenAt >= cutoff) return 'fresh';
    await this.remove(id);
    return 'evicted';
  }

  async count(instance: string): Promise<SessionCounts> {
    return { local: this.servedBy.get(instance)?.size ?? 0, cluster: this.records.size };
  }

  private served(instance: string): Set<string> {
    let ids = this.servedBy.get(instance);
    if (!ids) {
      ids = new Set();
      this.servedBy.set(instance, ids);
    }
    return ids;
  }
}

/** The record after `change`, for registries that keep whole records. */
export function applyChange(record: SessionRecord, change: SessionChange): SessionRecord {
  const revision = record.revision + (isReplayedChange(change) ? 1 : 0);
  switch (change.kind) {
    case 'answered':
      return { ...record, protocolVersion: change.protocolVersion };
    case 'logLevel':
      return { ...record, logLevel: change.level, revision };
    case 'subscribe':
      return { ...record, subscriptions: [...new Set([...record.subscriptions, change.uri])], revision };
    case 'unsubscribe':
      return { ...record, subscriptions: record.subscriptions.filter((uri) => uri !== change.uri), revision };
    case 'streamHolder':
      return { ...record, streamHolder: change.instance };
  }
}

function copyRecord(record: SessionRecord): SessionRecord {
  return structuredClone(record);
}
