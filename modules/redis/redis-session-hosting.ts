// The Redis side of the HTTP host's 2025 sessions, started together: one connection shared by the session registry
// and the peer channels (the session event stores and the notification bus can share it too), closed after the host
// that used them. createApp's listen starts it when STORAGE_PROVIDER_TYPE=redis; in code, spread it into http().
import type { Logger } from '../../src/index.js';
import { createRedisConnection, type RedisConnection } from './redis-connection.js';
import type { RedisConnectionOptions } from './redis-connection-options.js';
import { RedisSessionPeers } from './redis-session-peers.js';
import { RedisSessionRegistry } from './redis-session-registry.js';

export interface RedisSessionHostingOptions {
  /** Options for a connection opened here (and closed by `close`), or a shared one `close` leaves open. */
  connection: RedisConnectionOptions | RedisConnection;
  /** The host's MCP_STATEFUL_SESSION_STALE_TIMEOUT_MS: records outlive it twice over, as a backstop to eviction. */
  staleSessionTimeoutMs: number;
  /** This instance's id (no `:`); random by default. */
  instanceId?: string;
  logger?: Logger;
}

export interface RedisSessionHosting {
  readonly connection: RedisConnection;
  readonly registry: RedisSessionRegistry;
  readonly peers: RedisSessionPeers;
  /** Stops listening to the peers and quits the connection when it was opened here. */
  close(): Promise<void>;
}

/** `app.serve(http({ registry, peers }))` with what this resolves to serves sessions any instance can continue. */
export async function startRedisSessionHosting(options: RedisSessionHostingOptions): Promise<RedisSessionHosting> {
  const owned = !('client' in options.connection);
  const connection =
    'client' in options.connection
      ? options.connection
      : createRedisConnection(options.connection, options.logger ? { logger: options.logger } : {});
  try {
    const registry = new RedisSessionRegistry({ connection, sessionTtlMs: 2 * options.staleSessionTimeoutMs });
    const peers = await RedisSessionPeers.start(connection, {
      ...(options.instanceId === undefined ? {} : { instanceId: options.instanceId }),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    return {
      connection,
      registry,
      peers,
      async close() {
        await peers.close();
        if (owned) await connection.close();
      },
    };
  } catch (error) {
    if (owned) await connection.close();
    throw error;
  }
}
