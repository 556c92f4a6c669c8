// SSE resumability for one 2025 session: the frames its streams carried, bounded by count and age. One store per
// session, because the SDK names every session's standalone GET stream "_GET_stream" and never says which session
// an event belongs to: a shared store would replay one session's frames to another.
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

export interface SessionEventStore extends EventStore {
  /** Drops everything retained; called when the session ends. */
  clear(): Promise<void>;
}

/** Builds the store for a session; a Redis-backed factory can replace the in-memory one. */
export type SessionEventStoreFactory = (sessionId: string) => SessionEventStore;

interface StoredEvent {
  readonly id: string;
  readonly seq: number;
  readonly streamId: string;
  readonly message: JSONRPCMessage;
  readonly storedAt: number;
}

export interface EventRetention {
  readonly maxEvents: number;
  readonly ttlMs: number;
  readonly now?: () => number;
}

// Event ids are `<seq>_<streamId>`: unique across the session's streams and carrying the stream, so a client
// resuming from an id whose frame has already been evicted still resumes the right stream.
const eventId = (seq: number, streamId: string) => `${seq}_${streamId}`;

function parseEventId(id: string): { seq: number; streamId: string } | undefined {
  const separator = id.indexOf('_');
  const digits = id.slice(0, separator);
  // Only the form eventId() writes: an id this store never issued ('0_', '-1_', '1e0_') is no resume point.
  const seq = /^[1-9]\d*$/.test(digits) ? Number(digits) : Number.NaN;
  if (separator <= 0 || !Number.isSafeInteger(seq)) return undefined;
  return { seq, streamId: id.slice(separator + 1) };
}

export class InMemorySessionEventStore implements SessionEventStore {
  /** Retained events are `events[first..]`: evicting moves `first`, and the array is compacted now and then. */
  private events: StoredEvent[] = [];
  private first = 0;
  private nextSeq = 1;
  private readonly now: () => number;

  constructor(private readonly retention: EventRetention) {
    this.now = retention.now ?? Date.now;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const seq = this.nextSeq++;
    const id = eventId(seq, streamId);
    this.events.push({ id, seq, streamId, message, storedAt: this.now() });
    this.evict();
    return id;
  }

  async getStreamIdForEventId(id: string): Promise<string | undefined> {
    const parsed = parseEventId(id);
    return parsed && parsed.seq < this.nextSeq ? parsed.streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) throw new Error(`Unrecognised Last-Event-ID ${JSON.stringify(lastEventId)}.`);
    this.evict();
    for (let i = this.first; i < this.events.length; i++) {
      const event = this.events[i] as StoredEvent;
      // Priming events carry no message; they only mark a resumption point.
      if (event.streamId !== parsed.streamId || event.seq <= parsed.seq || isPrimingEvent(event.message)) continue;
      await send(event.id, event.message);
    }
    return parsed.streamId;
  }

  async clear(): Promise<void> {
    this.events = [];
    this.first = 0;
  }

  /** Frames retained right now (for tests and metrics). */
  get size(): number {
    this.evict();
    return this.events.length - this.first;
  }

  /** Drops what is over the count or past its age; a full store evicts one event per event stored. */
  private evict(): void {
    const { events } = this;
    const oldest = this.now() - this.retention.ttlMs;
    let first = Math.max(this.first, events.length - this.retention.maxEvents);
    while (first < events.length && (events[first] as StoredEvent).storedAt < oldest) first++;
    // Compacted once the evicted prefix outgrows what is retained: copying stays amortised O(1) per event.
    if (first > 64 && first * 2 > events.length) {
      this.events = events.slice(first);
      first = 0;
    }
    this.first = first;
  }
}

/** The SDK's priming event: an empty message that only marks a resumption point, never replayed to a client. */
export function isPrimingEvent(message: JSONRPCMessage): boolean {
  return Object.keys(message).length === 0;
}
