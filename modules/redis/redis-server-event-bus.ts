// The SDK's ServerEventBus over Redis pub/sub, so a change published on one Kiln instance reaches the listen streams
// and 2025 sessions served by every instance. Delivery is at most once: a `resource_updated` lost during a subscriber
// outage cannot be recovered, so after one the bus re-announces every list as changed and clients refetch.
import { randomUUID } from 'node:crypto';
import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';
import { Cluster } from 'ioredis';
import { withChangeEventId } from '../../src/host/index.js';
import type { Logger } from '../../src/index.js';
import { decodeBusMessage, encodeEvent, encodeProbe } from './bus-message.js';
import { type BusSubscriber, openSubscriber } from './bus-subscriber.js';
import { OutageWarning } from './outage-warning.js';
import { createRedisConnection, type RedisConnection } from './redis-connection.js';
import type { RedisConnectionOptions } from './redis-connection-options.js';

export interface RedisServerEventBusOptions {
  /**
   * Options for a connection the bus opens and `close` quits, or a connection shared with the rest of the app, which
   * `close` leaves open. Either way the bus publishes on it and subscribes on a dedicated duplicate of it.
   */
  readonly connection: RedisConnectionOptions | RedisConnection;
  /** Process log: delivery failures, Redis outages and recoveries. */
  readonly logger?: Logger;
  /** Tags this instance's messages so it can drop them when Redis echoes them back; default a random UUID. */
  readonly instanceId?: string;
}

/** How often a bus whose subscription was lost checks, with a message to itself, whether it is back. */
const PROBE_INTERVAL_MS = 1_000;

/** What a client may have missed while the subscription was down; `resource_updated` has nothing to re-announce. */
const LIST_CHANGES: readonly ServerEvent[] = [
  { kind: 'tools_list_changed' },
  { kind: 'prompts_list_changed' },
  { kind: 'resources_list_changed' },
];

function isConnection(value: RedisConnectionOptions | RedisConnection): value is RedisConnection {
  return 'client' in value;
}

export class RedisServerEventBus implements ServerEventBus {
  /** The Redis channel, under the key prefix. */
  readonly channel: string;
  readonly instanceId: string;
  private readonly connection: RedisConnection;
  private readonly ownsConnection: boolean;
  private readonly logger: Logger | undefined;
  private readonly local: InMemoryServerEventBus;
  private readonly sharded: boolean;
  private readonly subscriber: BusSubscriber;
  private readonly publishOutage: OutageWarning;
  private readonly subscriberOutage: OutageWarning;
  private lost = false;
  /** Events this instance published, for their ids. */
  private published = 0;
  /** Set once the first subscription took: until then no event of another instance can arrive. */
  private listening = false;
  private probeTimer: NodeJS.Timeout | undefined;
  private warnedMalformed = false;
  private closed = false;

  constructor(options: RedisServerEventBusOptions) {
    this.logger = options.logger;
    this.ownsConnection = !isConnection(options.connection);
    this.connection = isConnection(options.connection)
      ? options.connection
      : createRedisConnection(options.connection, options.logger ? { logger: options.logger } : {});
    this.instanceId = options.instanceId ?? randomUUID();
    const prefix = this.connection.keyPrefix;
    this.channel = `${prefix === '' ? '' : `${prefix}:`}bus`;
    this.sharded = this.connection.client instanceof Cluster;
    this.local = new InMemoryServerEventBus((error) =>
      this.logger?.warning({ err: error }, 'Change event delivery failed'),
    );
    this.publishOutage = new OutageWarning(
      this.logger,
      'Redis did not take a change event; other instances will not hear of it',
      'Redis takes change events again',
    );
    this.subscriberOutage = new OutageWarning(
      this.logger,
      'Redis change-event subscription failed; events from other instances are lost until it is back',
    );
    this.subscriber = openSubscriber(this.connection.client, this.channel, {
      message: (text) => this.receive(text),
      lost: () => this.subscriptionLost(),
      subscribed: (first) => {
        this.listening = true;
        if (first) this.subscriberOutage.succeeded();
        else this.probe();
      },
      failed: (error) => this.subscriberOutage.failed(error),
    });
  }

  /** Whether events of other instances reach this one now: subscribed, and not lost since (readiness). */
  get subscribed(): boolean {
    return this.listening && !this.lost && !this.closed;
  }

  /** Delivers to this instance's listeners at once (exactly once), then to every other instance through Redis. */
  publish(event: ServerEvent): void {
    // One id for the event on every instance, so a session's event store keeps it once whoever stores it.
    const named = withChangeEventId(event, `${this.instanceId}:${++this.published}`);
    this.local.publish(named);
    if (this.closed) return;
    this.send(encodeEvent(this.instanceId, named)).then(
      () => this.publishOutage.succeeded(),
      (error: unknown) => this.publishOutage.failed(error),
    );
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    return this.local.subscribe(listener);
  }

  /** Unsubscribes and quits the subscriber connection, and the publishing one if the bus opened it. Local delivery goes on. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.probeTimer);
    await this.subscriber.close(this.connection.commandTimeoutMs);
    if (this.ownsConnection) await this.connection.close();
  }

  private send(text: string): Promise<unknown> {
    const { client } = this.connection;
    return this.sharded ? client.spublish(this.channel, text) : client.publish(this.channel, text);
  }

  private receive(text: string): void {
    const message = decodeBusMessage(text);
    if (!message) this.malformed(text);
    else if (message.from !== this.instanceId) {
      if ('event' in message) this.local.publish(message.event);
    } else if ('probe' in message) this.subscriptionConfirmed();
  }

  private subscriptionLost(): void {
    this.lost = true;
    if (this.probeTimer !== undefined) return;
    this.probeTimer = setInterval(() => this.probe(), PROBE_INTERVAL_MS);
    this.probeTimer.unref();
  }

  private probe(): void {
    if (!this.lost || this.closed) return;
    // A failed probe needs no report: the subscriber's own failure has been logged, and the next probe follows.
    this.send(encodeProbe(this.instanceId)).catch(() => undefined);
  }

  /** Our own probe came back: the subscription is live, and whatever was published while it was down is gone. */
  private subscriptionConfirmed(): void {
    if (!this.lost || this.closed) return;
    this.lost = false;
    clearInterval(this.probeTimer);
    this.probeTimer = undefined;
    this.subscriberOutage.succeeded();
    this.logger?.info(
      { channel: this.channel },
      'Redis change-event subscription is back; announcing tools, prompts and resources as changed so clients refetch',
    );
    for (const event of LIST_CHANGES) this.local.publish(event);
  }

  private malformed(text: string): void {
    const fields = { channel: this.channel, length: text.length };
    if (this.warnedMalformed) {
      this.logger?.debug(fields, 'Ignored a message that is not a change event');
      return;
    }
    this.warnedMalformed = true;
    this.logger?.warning(fields, 'Ignored a message that is not a change event (further ones are logged at debug)');
  }
}
