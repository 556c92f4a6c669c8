// RedisSessionRegistry keeps the registry contract on a single node and on a 3-master Cluster (session hashes spread
// over the masters, the indexes in one slot), expires what nobody touches, and the peer channels carry notices to
// every other instance and replies to exactly one.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionNotice } from '../../modules/http/index.js';
import {
  createRedisConnection,
  type RedisConnection,
  RedisSessionPeers,
  RedisSessionRegistry,
} from '../../modules/redis/index.js';
import { runSessionRegistryContract, sessionRecord } from '../http/session-registry-contract.js';
import { type RedisClusterServers, startRedisCluster } from '../support/redis-cluster.js';
import { type RedisSingleServer, startRedisServer } from '../support/redis-servers.js';
import { type RedisTarget, uniquePrefix } from './redis-test-providers.js';

let single: RedisSingleServer;
let cluster: RedisClusterServers;

beforeAll(async () => {
  [single, cluster] = await Promise.all([startRedisServer(), startRedisCluster()]);
});

afterAll(async () => {
  await Promise.all([single?.stop(), cluster?.stop()]);
});

const targets: Array<[string, () => RedisTarget]> = [
  ['a single node', () => ({ url: single.url })],
  ['a 3-master Cluster', () => ({ clusterNodes: cluster.addresses })],
];

for (const [where, target] of targets) {
  const connect = (keyPrefix = uniquePrefix()) => createRedisConnection({ ...target(), keyPrefix });

  runSessionRegistryContract(`RedisSessionRegistry on ${where}`, async () => {
    const connection = connect();
    return {
      registry: new RedisSessionRegistry({ connection, sessionTtlMs: 60_000 }),
      close: () => connection.close(),
    };
  });

  describe(`Redis sessions on ${where}`, () => {
    let connection: RedisConnection;
    beforeAll(() => {
      connection = connect();
    });
    afterAll(() => connection.close());

    it('expires a record nobody touches, and renews the expiry on every touch', async () => {
      const registry = new RedisSessionRegistry({ connection, sessionTtlMs: 300 });
      const record = sessionRecord();
      await registry.add(record);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await registry.touch(record.id, 2_000, 'instance-a')).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await registry.get(record.id)).toBeDefined();
      await vi.waitFor(async () => expect(await registry.get(record.id)).toBeUndefined(), { timeout: 2_000 });
      // The index still names it until a sweep passes: eviction finds it gone and drops it.
      expect(await registry.evictIfStale(record.id, Number.MAX_SAFE_INTEGER)).toBe('gone');
      expect(await registry.count('instance-b')).toEqual({ local: 0, cluster: 0 });
    });

    it('tells every other instance, never the sender, and hands replies to one instance only', async () => {
      const peers = await Promise.all(
        ['a', 'b', 'c'].map((id) => RedisSessionPeers.start(connection, { instanceId: `peer-${id}` })),
      );
      const heard = peers.map(() => ({ notices: [] as SessionNotice[], replies: [] as unknown[] }));
      peers.forEach((peer, index) => {
        peer.listen({
          notice: (notice) => heard[index]?.notices.push(notice),
          messages: (sessionId, messages) => heard[index]?.replies.push({ sessionId, messages }),
        });
      });
      try {
        const [a, b] = peers as [RedisSessionPeers, RedisSessionPeers];
        const sessionId = randomUUID();
        await a.announce({ kind: 'ended', sessionId });
        const reply = { jsonrpc: '2.0' as const, id: 'peer-b:3', result: { action: 'accept' } };
        expect(await a.forward('peer-b', sessionId, [reply])).toBe(true);
        await vi.waitFor(() => {
          expect(heard[1]?.notices).toEqual([{ kind: 'ended', sessionId }]);
          expect(heard[2]?.notices).toEqual([{ kind: 'ended', sessionId }]);
          expect(heard[1]?.replies).toEqual([{ sessionId, messages: [reply] }]);
        });
        expect(heard[0]).toEqual({ notices: [], replies: [] });
        expect(heard[2]?.replies).toEqual([]);
        expect(b.instanceId).toBe('peer-b');
        // On one node PUBLISH counts the receivers, so a reply for an instance that is gone is known to be lost.
        if ('url' in target()) expect(await a.forward('peer-gone', sessionId, [reply])).toBe(false);
      } finally {
        await Promise.all(peers.map((peer) => peer.close()));
      }
    });
  });
}
