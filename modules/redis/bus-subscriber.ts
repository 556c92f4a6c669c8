// The change-event bus's own subscriber connection: a connection in subscriber mode can run nothing else, so it is
// never the app's shared one. A single node uses classic SUBSCRIBE; a Cluster uses sharded pub/sub (SSUBSCRIBE,
// Redis 7), where only the master owning the channel's slot carries the traffic instead of every node.
import { Cluster, type Redis } from 'ioredis';
import { withDeadline } from './operation-deadline.js';
import type { RedisClient } from './redis-connection.js';

export interface SubscriberEvents {
  /** A message's text as it arrived on the channel. */
  message(text: string): void;
  /** The connection carrying the subscription went away; messages published until it is back are lost. */
  lost(): void;
  /** The subscription was (re)established; `first` only the first time. */
  subscribed(first: boolean): void;
  /** A connection or subscription failure, for the log; the subscriber keeps retrying by itself. */
  failed(error: unknown): void;
}

export interface BusSubscriber {
  /** Unsubscribes and quits, within `timeoutMs`, then disconnects; never rejects. */
  close(timeoutMs: number): Promise<void>;
}

const SUBSCRIBE_RETRY_MS = 1_000;

export function openSubscriber(client: RedisClient, channel: string, events: SubscriberEvents): BusSubscriber {
  return client instanceof Cluster
    ? clusterSubscriber(client, channel, events)
    : nodeSubscriber(client, channel, events);
}

/**
 * Subscribes again on every `ready` itself (ioredis's autoResubscribe is off): awaiting the SUBSCRIBE reply tells
 * exactly when the subscription is back.
 */
function nodeSubscriber(client: Redis, channel: string, events: SubscriberEvents): BusSubscriber {
  const subscriber = client.duplicate({ autoResubscribe: false, enableAutoPipelining: false });
  let closed = false;
  let subscribedOnce = false;
  subscriber.on('message', (from: string, text: string) => {
    if (!closed && from === channel) events.message(text);
  });
  subscriber.on('error', (error: unknown) => events.failed(error));
  subscriber.on('close', () => {
    if (!closed && subscribedOnce) events.lost();
  });
  subscriber.on('ready', async () => {
    try {
      await subscriber.subscribe(channel);
    } catch (error) {
      // The connection dropped again; the next `ready` retries.
      if (!closed) events.failed(error);
      return;
    }
    if (closed) return;
    events.subscribed(!subscribedOnce);
    subscribedOnce = true;
  });
  return {
    async close(timeoutMs) {
      closed = true;
      await quit(subscriber, () => subscriber.unsubscribe(channel), timeoutMs);
    },
  };
}

/**
 * ioredis keeps one sharded subscriber per master and resubscribes it after a topology refresh, announcing
 * `subscribersReady`; a subscriber connection that ends shows as `-node` with its node key. `subscribersReady` also
 * follows attempts that failed, so the bus confirms a resubscription with a probe before trusting it.
 */
function clusterSubscriber(client: Cluster, channel: string, events: SubscriberEvents): BusSubscriber {
  const subscriber = client.duplicate([], { shardedSubscribers: true, enableAutoPipelining: false });
  let closed = false;
  let subscribedOnce = false;
  let retry: NodeJS.Timeout | undefined;
  subscriber.on('smessage', (from: string, text: string) => {
    if (!closed && from === channel) events.message(text);
  });
  subscriber.on('error', (error: unknown) => events.failed(error));
  subscriber.on('-node', (_node: unknown, subscriberNodeKey?: string) => {
    if (!closed && subscribedOnce && subscriberNodeKey !== undefined) events.lost();
  });
  subscriber.on('close', () => {
    if (!closed && subscribedOnce) events.lost();
  });
  subscriber.on('subscribersReady', () => {
    if (!closed && subscribedOnce) events.subscribed(false);
  });
  const subscribe = async () => {
    try {
      await subscriber.ssubscribe(channel);
    } catch (error) {
      if (closed) return;
      events.failed(error);
      retry = setTimeout(subscribe, SUBSCRIBE_RETRY_MS);
      retry.unref();
      return;
    }
    if (closed) return;
    subscribedOnce = true;
    events.subscribed(true);
  };
  void subscribe();
  return {
    async close(timeoutMs) {
      closed = true;
      clearTimeout(retry);
      await quit(subscriber, () => subscriber.sunsubscribe(channel), timeoutMs);
    },
  };
}

async function quit(subscriber: RedisClient, unsubscribe: () => Promise<unknown>, timeoutMs: number): Promise<void> {
  try {
    await withDeadline(
      unsubscribe().then(() => subscriber.quit()),
      timeoutMs,
    );
  } catch {
    // Already disconnected, or Redis did not answer in time: the hard disconnect below is all that is left.
  }
  subscriber.disconnect();
}
