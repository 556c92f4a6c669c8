// One ioredis client (single node or Cluster) tuned to fail fast: during an outage a call rejects within the
// command timeout instead of queueing until Redis returns, while the client keeps reconnecting in the background.
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../../src/index.js';
import {
  type RedisConnectionOptions,
  type ResolvedRedisOptions,
  resolveRedisOptions,
} from './redis-connection-options.js';

export type RedisClient = Redis | Cluster;

export interface RedisConnection {
  readonly client: RedisClient;
  readonly keyPrefix: string;
  readonly commandTimeoutMs: number;
  /** QUIT, then a hard disconnect if Redis does not answer in time; never rejects. */
  close(): Promise<void>;
}

export interface RedisConnectionDependencies {
  /** Receives connection failures (with hosts: this is the operator's log, not a client) and recoveries. */
  logger?: Logger;
}

const MAX_RECONNECT_DELAY_MS = 2_000;
/** One warning per failing endpoint per window, so a long outage does not flood the log. */
const FAILURE_LOG_WINDOW_MS = 60_000;

/** Reconnect forever, backing off to at most two seconds between attempts. */
function reconnectDelay(attempt: number): number {
  return Math.min(50 * 2 ** Math.min(attempt, 6), MAX_RECONNECT_DELAY_MS);
}

function nodeOptions(commandTimeoutMs: number): RedisOptions {
  return {
    commandTimeout: commandTimeoutMs,
    connectTimeout: commandTimeoutMs,
    // A command waits for at most one reconnect attempt, then rejects: callers get an error, not a hang.
    maxRetriesPerRequest: 1,
    retryStrategy: reconnectDelay,
  };
}

function createClient({ target, commandTimeoutMs }: ResolvedRedisOptions): RedisClient {
  if (target.kind === 'node') {
    return new Redis(target.url, { ...nodeOptions(commandTimeoutMs), enableAutoPipelining: true });
  }
  const options: ClusterOptions = {
    enableAutoPipelining: true,
    clusterRetryStrategy: reconnectDelay,
    slotsRefreshTimeout: commandTimeoutMs,
    retryDelayOnClusterDown: 100,
    retryDelayOnFailover: 100,
    retryDelayOnTryAgain: 100,
    redisOptions: nodeOptions(commandTimeoutMs),
  };
  return new Cluster(target.seeds, options);
}

/** Without an `error` listener ioredis prints every failed reconnect to the console. */
function watchHealth(client: RedisClient, logger: Logger | undefined): void {
  const lastWarned = new Map<string, number>();
  let degraded = false;
  const failed = (endpoint: string, error: unknown) => {
    degraded = true;
    const now = Date.now();
    if (now - (lastWarned.get(endpoint) ?? 0) < FAILURE_LOG_WINDOW_MS) return;
    lastWarned.set(endpoint, now);
    logger?.warning({ endpoint, err: error }, 'Redis connection failed; reconnecting in the background');
  };
  if (client instanceof Cluster) {
    client.on('node error', (error: unknown, address: string) => failed(address, error));
  }
  client.on('error', (error: unknown) => failed('redis', error));
  client.on('ready', () => {
    if (!degraded) return;
    degraded = false;
    lastWarned.clear();
    logger?.info('Redis connection ready again');
  });
}

export function createRedisConnection(
  options: RedisConnectionOptions,
  dependencies: RedisConnectionDependencies = {},
): RedisConnection {
  const resolved = resolveRedisOptions(options);
  const client = createClient(resolved);
  watchHealth(client, dependencies.logger);
  return {
    client,
    keyPrefix: resolved.keyPrefix,
    commandTimeoutMs: resolved.commandTimeoutMs,
    async close() {
      const quitTimer = new Promise((resolve) => setTimeout(resolve, resolved.commandTimeoutMs).unref());
      await Promise.race([client.quit().catch(() => undefined), quitTimer]);
      client.disconnect();
    },
  };
}
