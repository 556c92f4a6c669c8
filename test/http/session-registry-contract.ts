// What every SessionRegistry promises the HTTP host, run against each implementation (in memory here, Redis on a
// single node and on a Cluster in test/redis): records read back whole, touches and changes never bring an ended
// session back, replayed changes bump the revision, and exactly one of racing removers or evictors wins.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionRecord, SessionRegistry } from '../../modules/http/index.js';

export interface OpenedRegistry {
  readonly registry: SessionRegistry;
  close(): Promise<void>;
}

/** A fresh, empty registry (its own key prefix on a shared Redis) per call. */
export type OpenRegistry = () => Promise<OpenedRegistry>;

export function sessionRecord(overrides: Partial<SessionRecord> = {}): SessionRecord {
  const initialize = {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: 'contract-client', version: '1.2.3' },
  };
  return {
    id: randomUUID(),
    createdAt: 1_000,
    lastSeenAt: 1_000,
    initialize,
    clientCapabilities: initialize.capabilities,
    clientInfo: initialize.clientInfo,
    subscriptions: [],
    streamHolder: 'instance-a',
    revision: 0,
    ...overrides,
  };
}

export function runSessionRegistryContract(name: string, open: OpenRegistry): void {
  describe(`SessionRegistry contract: ${name}`, () => {
    const opened: OpenedRegistry[] = [];
    const fresh = async () => {
      const registry = await open();
      opened.push(registry);
      return registry.registry;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((registry) => registry.close()));
    });

    it('reads a record back whole, principal and subscriptions included', async () => {
      const registry = await fresh();
      const record = sessionRecord({ principal: 'user:ada', subscriptions: ['notes://a', 'notes://{b}:c'] });
      await registry.add(record);
      const read = await registry.get(record.id);
      expect({ ...read, subscriptions: [...(read?.subscriptions ?? [])].sort() }).toEqual(record);
      expect(await registry.get(randomUUID())).toBeUndefined();
    });

    it('touches only sessions that exist, and never moves lastSeenAt back', async () => {
      const registry = await fresh();
      const record = sessionRecord();
      await registry.add(record);
      expect(await registry.touch(record.id, 5_000, 'instance-a')).toBe(0);
      expect(await registry.touch(record.id, 4_000, 'instance-b')).toBe(0);
      expect((await registry.get(record.id))?.lastSeenAt).toBe(5_000);
      expect(await registry.touch(randomUUID(), 5_000, 'instance-a')).toBeUndefined();
      await registry.remove(record.id);
      expect(await registry.touch(record.id, 6_000, 'instance-a')).toBeUndefined();
      expect(await registry.get(record.id)).toBeUndefined();
    });

    it('bumps the revision for changes a rebuilt session replays, and for those only', async () => {
      const registry = await fresh();
      const record = sessionRecord();
      await registry.add(record);
      expect(await registry.update(record.id, { kind: 'answered', protocolVersion: '2025-11-25' })).toBe(0);
      expect(await registry.update(record.id, { kind: 'streamHolder', instance: 'instance-b' })).toBe(0);
      expect(await registry.update(record.id, { kind: 'logLevel', level: 'warning' })).toBe(1);
      expect(await registry.update(record.id, { kind: 'subscribe', uri: 'notes://1' })).toBe(2);
      expect(await registry.update(record.id, { kind: 'subscribe', uri: 'notes://2' })).toBe(3);
      expect(await registry.update(record.id, { kind: 'unsubscribe', uri: 'notes://1' })).toBe(4);
      expect(await registry.get(record.id)).toMatchObject({
        protocolVersion: '2025-11-25',
        streamHolder: 'instance-b',
        logLevel: 'warning',
        subscriptions: ['notes://2'],
        revision: 4,
      });
      expect(await registry.touch(record.id, 2_000, 'instance-a')).toBe(4);

      await registry.remove(record.id);
      expect(await registry.update(record.id, { kind: 'logLevel', level: 'debug' })).toBeUndefined();
      expect(await registry.get(record.id)).toBeUndefined();
    });

    it('lets exactly one of the instances that find the stream holder gone take over its stream', async () => {
      const registry = await fresh();
      const record = sessionRecord();
      await registry.add(record);
      const survivors = ['instance-b', 'instance-c', 'instance-d', 'instance-e'];
      const outcomes = await Promise.all(
        survivors.map((instance) => registry.takeOverStream(record.id, 'instance-a', instance)),
      );
      const winner = (await registry.get(record.id))?.streamHolder;
      expect(survivors).toContain(winner);
      // Every one of them learns the same holder: the winner.
      expect(outcomes).toEqual(survivors.map(() => winner));
      // A takeover from a holder that no longer holds it changes nothing.
      expect(await registry.takeOverStream(record.id, 'instance-a', 'instance-z')).toBe(winner);
      await registry.remove(record.id);
      expect(await registry.takeOverStream(record.id, winner as string, 'instance-z')).toBeUndefined();
    });

    it('lets exactly one of concurrent removers end a session', async () => {
      const registry = await fresh();
      const record = sessionRecord();
      await registry.add(record);
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => registry.remove(record.id)));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    });

    it('evicts a session only while it is stale, with exactly one winner', async () => {
      const registry = await fresh();
      const stale = sessionRecord({ lastSeenAt: 1_000 });
      const fresher = sessionRecord({ lastSeenAt: 1_000 });
      await registry.add(stale);
      await registry.add(fresher);
      await registry.touch(fresher.id, 9_000, 'instance-a');
      expect((await registry.staleSince(5_000)).sort()).toEqual([stale.id]);
      expect(await registry.evictIfStale(fresher.id, 5_000)).toBe('fresh');

      const outcomes = await Promise.all(Array.from({ length: 10 }, () => registry.evictIfStale(stale.id, 5_000)));
      expect(outcomes.filter((outcome) => outcome === 'evicted')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'gone')).toHaveLength(9);
      expect(await registry.get(stale.id)).toBeUndefined();
      expect(await registry.staleSince(5_000)).toEqual([]);
      expect(await registry.get(fresher.id)).toBeDefined();
    });

    it('counts the sessions each instance serves, and every session recorded', async () => {
      const registry = await fresh();
      const [first, second, third] = [sessionRecord(), sessionRecord(), sessionRecord()];
      for (const record of [first, second, third]) await registry.add(record);
      await registry.touch(first.id, 2_000, 'instance-a');
      await registry.touch(second.id, 2_000, 'instance-a');
      await registry.touch(second.id, 2_000, 'instance-b');
      expect(await registry.count('instance-a')).toEqual({ local: 2, cluster: 3 });
      expect(await registry.count('instance-b')).toEqual({ local: 1, cluster: 3 });
      await registry.release(second.id, 'instance-a');
      await registry.remove(third.id);
      expect(await registry.count('instance-a')).toEqual({ local: 1, cluster: 2 });
      expect(await registry.count('instance-c')).toEqual({ local: 0, cluster: 2 });
    });
  });
}
