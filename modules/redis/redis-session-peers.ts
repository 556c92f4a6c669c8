// The instances serving 2025 sessions from one Redis, talking over pub/sub: notices on one channel every instance
// hears (a session ended, changed, or its event stream moved), and an inbox channel per instance for client replies
// to the requests it sent. Pub/sub delivers at most once; each notice has a backstop in the registry (a copy that
// missed "ended" gets 404 from its next touch, one that missed "changed" sees a newer revision).
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { Cluster } from 'ioredis';
import type { SessionNotice, SessionPeerListener, SessionPeers } from 'mcp-kiln/http';
import type { Logger } from '../../src/index.js';
import type { RedisClient, RedisConnection } from './redis-connection.js';
import { type SessionKeys, sessionKeys } from './session-key-layout.js';

export interface RedisSessionPeersOptions {
  /** This instance's id (no `:`); a fresh random one by default. */
  instanceId?: string;
  logger?: Logger;
}

interface NoticeEnvelope {
  readonly from: string;
  readonly notice: SessionNotice;
}

interface InboxEnvelope {
  readonly sessionId: string;
  readonly messages: JSONRPCMessage[];
}

export class RedisSessionPeers implements SessionPeers {
  readonly spansInstances = true;

  private readonly listeners = new Set<SessionPeerListener>();

  private constructor(
    readonly instanceId: string,
    private readonly connection: RedisConnection,
    private readonly subscriber: RedisClient,
    private readonly keys: SessionKeys,
    private readonly logger: Logger | undefined,
  ) {}

  /** Subscribes on a connection of its own (a subscribed connection can do nothing else) and resolves once heard. */
  static async start(connection: RedisConnection, options: RedisSessionPeersOptions = {}): Promise<RedisSessionPeers> {
    const instanceId = options.instanceId ?? randomUUID();
    if (instanceId.includes(':')) throw new Error(`Instance id ${JSON.stringify(instanceId)} must not contain ":"`);
    const keys = sessionKeys(connection.keyPrefix);
    const subscriber = connection.client.duplicate();
    // The shared connection already reports outages; without a listener ioredis would print each failure.
    subscriber.on('error', (error: unknown) => options.logger?.debug({ err: error }, 'Session peer channel failed'));
    const peers = new RedisSessionPeers(instanceId, connection, subscriber, keys, options.logger);
    subscriber.on('message', (channel: string, text: string) => peers.heard(channel, text));
    await subscriber.subscribe(keys.notices, keys.inbox(instanceId));
    return peers;
  }

  async announce(notice: SessionNotice): Promise<void> {
    const envelope: NoticeEnvelope = { from: this.instanceId, notice };
    await this.connection.client.publish(this.keys.notices, JSON.stringify(envelope));
  }

  async forward(instance: string, sessionId: string, messages: readonly JSONRPCMessage[]): Promise<boolean> {
    const envelope: InboxEnvelope = { sessionId, messages: [...messages] };
    const receivers = await this.connection.client.publish(this.keys.inbox(instance), JSON.stringify(envelope));
    // A Cluster counts only the subscribers on the node that took the PUBLISH, so zero proves nothing there.
    return receivers > 0 || this.connection.client instanceof Cluster;
  }

  async isGone(instance: string): Promise<boolean> {
    // As with forward: a Cluster counts only one node's subscribers, so it cannot tell.
    if (this.connection.client instanceof Cluster) return false;
    const [, subscribers] = (await this.connection.client.pubsub('NUMSUB', this.keys.inbox(instance))) as [
      string,
      number,
    ];
    return Number(subscribers) === 0;
  }

  listen(listener: SessionPeerListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.race([
      this.subscriber.quit().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, this.connection.commandTimeoutMs).unref()),
    ]);
    this.subscriber.disconnect();
  }

  private heard(channel: string, text: string): void {
    try {
      if (channel === this.keys.notices) {
        const { from, notice } = JSON.parse(text) as NoticeEnvelope;
        if (from === this.instanceId) return;
        for (const listener of this.listeners) listener.notice(notice);
      } else {
        const { sessionId, messages } = JSON.parse(text) as InboxEnvelope;
        for (const listener of this.listeners) listener.messages(sessionId, messages);
      }
    } catch (error) {
      this.logger?.warning({ err: error, channel }, 'Ignored an unreadable session peer message');
    }
  }
}
