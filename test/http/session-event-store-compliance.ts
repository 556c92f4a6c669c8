// The behaviour every SessionEventStore shares, run against each implementation (in memory here, Redis in
// test/redis): ids unique across the session's streams and naming their stream; replay of one stream, strictly after
// the given id; retention bounded by count and by age (spec 2025-11-25, Streamable HTTP "Resumability and
// Redelivery"). Only the shape of ids differs between stores, so each names its own unissued and forged ids.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { EventRetention, SessionEventStore } from '../../modules/http/sessions/session-event-store.js';

const PRIMING = {} as JSONRPCMessage;
const note = (method: string): JSONRPCMessage => ({ jsonrpc: '2.0', method });

interface Clock {
  at: number;
}

export interface StoreUnderTest {
  readonly store: SessionEventStore;
  /** Frames the store retains right now. */
  size(): Promise<number>;
}

export interface SessionEventStoreSubject {
  /** A new, empty store for one session with these limits; the caller's own hooks clean up after it. */
  open(retention: EventRetention): StoreUnderTest;
  /** An id in the store's own format naming the stream of `issued` but later than anything issued so far. */
  unissued(issued: string): string;
  /** Ids in (or near) the store's own format that it never issues. */
  readonly forged: readonly string[];
}

async function replay(store: SessionEventStore, lastEventId: string) {
  const sent: { id: string; message: JSONRPCMessage }[] = [];
  const streamId = await store.replayEventsAfter(lastEventId, {
    send: async (id, message) => {
      sent.push({ id, message });
    },
  });
  return { streamId, sent };
}

/** Registers the shared cases; `subject` is read when a case starts, so it may depend on beforeAll. */
export function describeSessionEventStore(name: string, subject: () => SessionEventStoreSubject): void {
  const storeWith = (retention: Partial<EventRetention> = {}, clock: Clock = { at: 0 }) =>
    subject().open({ maxEvents: 100, ttlMs: 60_000, now: () => clock.at, ...retention });

  describe(name, () => {
    it('gives every frame its own id across all streams, each naming its stream', async () => {
      const { store } = storeWith();
      const ids = [
        await store.storeEvent('_GET_stream', note('a')),
        await store.storeEvent('post-1', note('b')),
        await store.storeEvent('_GET_stream', note('c')),
        await store.storeEvent('post-1', note('d')),
      ];
      expect(new Set(ids).size).toBe(4);
      expect(await Promise.all(ids.map((id) => store.getStreamIdForEventId?.(id)))).toEqual([
        '_GET_stream',
        'post-1',
        '_GET_stream',
        'post-1',
      ]);
    });

    it('replays only the same stream, only after the given id, in order, with the original ids', async () => {
      const { store } = storeWith();
      const first = await store.storeEvent('_GET_stream', note('tools'));
      await store.storeEvent('post-1', note('progress'));
      const second = await store.storeEvent('_GET_stream', note('prompts'));
      await store.storeEvent('post-2', note('result'));
      const third = await store.storeEvent('_GET_stream', note('resources'));

      expect(await replay(store, first)).toEqual({
        streamId: '_GET_stream',
        sent: [
          { id: second, message: note('prompts') },
          { id: third, message: note('resources') },
        ],
      });
      expect(await replay(store, third)).toEqual({ streamId: '_GET_stream', sent: [] });
    });

    it('skips priming frames on replay, though a priming id is a valid place to resume from', async () => {
      const { store } = storeWith();
      const priming = await store.storeEvent('post-1', PRIMING);
      const progress = await store.storeEvent('post-1', note('progress'));
      await store.storeEvent('post-1', PRIMING);
      const result = await store.storeEvent('post-1', note('result'));

      const { sent } = await replay(store, priming);
      expect(sent).toEqual([
        { id: progress, message: note('progress') },
        { id: result, message: note('result') },
      ]);
    });

    it('keeps only the newest maxEvents frames, and still resolves the stream of an evicted id', async () => {
      const { store, size } = storeWith({ maxEvents: 3 });
      const evicted = await store.storeEvent('_GET_stream', note('one'));
      await store.storeEvent('_GET_stream', note('two'));
      const kept = [];
      for (const method of ['three', 'four', 'five']) kept.push(await store.storeEvent('_GET_stream', note(method)));

      expect(await size()).toBe(3);
      expect(await store.getStreamIdForEventId?.(evicted)).toBe('_GET_stream');
      const { streamId, sent } = await replay(store, evicted);
      expect(streamId).toBe('_GET_stream');
      expect(sent.map((event) => event.id)).toEqual(kept);
      expect(sent.map((event) => event.message)).toEqual([note('three'), note('four'), note('five')]);
    });

    it('drops frames older than ttlMs, keeping one exactly ttlMs old', async () => {
      const clock = { at: 1_000 };
      const { store, size } = storeWith({ ttlMs: 500 }, clock);
      const first = await store.storeEvent('_GET_stream', note('old'));
      clock.at = 1_200;
      const second = await store.storeEvent('_GET_stream', note('middle'));
      clock.at = 1_500;
      const third = await store.storeEvent('_GET_stream', note('new'));

      expect(await size()).toBe(3);
      clock.at = 1_501;
      expect(await size()).toBe(2);
      expect((await replay(store, first)).sent.map((event) => event.id)).toEqual([second, third]);

      clock.at = 1_701;
      expect((await replay(store, first)).sent.map((event) => event.id)).toEqual([third]);
      clock.at = 2_001;
      expect(await replay(store, first)).toEqual({ streamId: '_GET_stream', sent: [] });
      expect(await size()).toBe(0);
    });

    it('clear() drops every frame, and later ids never repeat the cleared ones', async () => {
      const { store, size } = storeWith();
      const before = [await store.storeEvent('_GET_stream', note('a')), await store.storeEvent('post-1', note('b'))];
      await store.clear();

      expect(await size()).toBe(0);
      expect((await replay(store, before[0] as string)).sent).toEqual([]);
      const after = await store.storeEvent('_GET_stream', note('c'));
      expect(before).not.toContain(after);
      expect((await replay(store, before[0] as string)).sent).toEqual([{ id: after, message: note('c') }]);
    });

    it('knows no stream for an id it never issued, and refuses to replay from an unreadable one', async () => {
      const { store } = storeWith();
      const issued = await store.storeEvent('_GET_stream', note('a'));
      const { unissued, forged } = subject();

      expect(await store.getStreamIdForEventId?.(unissued(issued))).toBeUndefined();
      for (const id of forged) expect(await store.getStreamIdForEventId?.(id)).toBeUndefined();
      expect(await store.getStreamIdForEventId?.('not-an-event-id')).toBeUndefined();
      await expect(replay(store, 'not-an-event-id')).rejects.toThrow(/Last-Event-ID/);
    });
  });
}
