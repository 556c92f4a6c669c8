// Serves an app the way its configuration says (MCP_TRANSPORT_TYPE), and ends the process cleanly on SIGTERM,
// SIGINT and stdin EOF. The HTTP host is loaded by its public entry only when selected, so a stdio server never
// loads Fastify; with STORAGE_PROVIDER_TYPE=redis its 2025 sessions live in Redis too, so any instance serves them;
// with MCP_AUTH_MODE=jwt or oauth the auth module reads its settings and the host requires tokens.
import type { Readable, Writable } from 'node:stream';
import type { HostHandle, KilnHost, Serving } from '../app/app-port.js';
import type { KilnApp } from '../app/kiln-app.js';
import { KilnBootError } from '../errors/boot-error.js';
import { stdio } from '../transports/stdio-transport.js';

import { exitOnSignals } from './process-signals.js';

export interface ListenOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Wire SIGTERM, SIGINT (and stdin EOF on stdio) to a clean exit; default true. */
  readonly exitOnSignals?: boolean;
  /** Where the auth module reads its settings (MCP_AUTH_SECRET_KEY, OAUTH_*, ...); defaults to process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export async function listen(app: KilnApp, options: ListenOptions = {}): Promise<Serving> {
  const handleSignals = options.exitOnSignals ?? true;
  const { mode } = app.config.auth;
  if (app.config.transportType === 'http') {
    const serving = await app.serve(await httpHost(app, options.env ?? process.env));
    // Before the line a supervisor may wait for: a SIGTERM sent the moment it reads it must find the handler.
    if (handleSignals) exitOnSignals(app);
    process.stdout.write(
      `${app.serverInfo.name} is serving MCP over HTTP.\n  Landing page: ${serving.url}\n  MCP endpoint: ${serving.endpointUrl}\n`,
    );
    app.logger.info({ url: serving.url, endpoint: serving.endpointUrl }, 'Serving MCP over HTTP');
    return serving;
  }
  if (mode !== 'none') {
    // The MCP authorization spec covers HTTP only; a stdio server runs as the user who started it.
    app.logger.warning(`MCP_AUTH_MODE=${mode} applies to HTTP; stdio serves without authentication.`);
  }
  const serving = await app.serve(stdio({ stdin: options.stdin, stdout: options.stdout }));
  if (handleSignals) exitOnSignals(app, options.stdin ?? process.stdin);
  return serving;
}

/** The HTTP host as configured: on Redis storage, with the session seams on the same Redis. */
async function httpHost(app: KilnApp, env: Readonly<Record<string, string | undefined>>) {
  const { http } = await import('mcp-kiln/http');
  const { mode } = app.config.auth;
  const base = mode === 'none' ? {} : { auth: (await import('mcp-kiln/auth')).authFromEnv(env) };
  const { storage } = app.config;
  if (storage.type !== 'redis') return http(base);
  const { RedisServerEventBus, redisSessionEventStores, startRedisSessionHosting } = await import('mcp-kiln/redis');
  const sessions = await startRedisSessionHosting({
    connection:
      'url' in storage
        ? { url: storage.url, keyPrefix: storage.keyPrefix }
        : { clusterNodes: storage.clusterNodes, keyPrefix: storage.keyPrefix },
    staleSessionTimeoutMs: app.config.http.staleSessionTimeoutMs,
    logger: app.logger,
  }).catch((error: unknown) => {
    // The sessions' channels subscribe at start: with Redis unreachable the server cannot serve 2025 sessions.
    throw new KilnBootError(
      `Redis could not be reached to start the session channels (${error instanceof Error ? error.message : error}). ` +
        'Start Redis, or check REDIS_URL / REDIS_CLUSTER_NODES, then start the server again.',
    );
  });
  // One connection for the registry, the peers, the SSE event store and the change-event bus (which subscribes on a
  // duplicate of it); the bus closes before the connection does.
  const bus = new RedisServerEventBus({ connection: sessions.connection, logger: app.logger });
  const { resumability } = app.config.http;
  const eventStores = resumability.enabled
    ? { eventStores: redisSessionEventStores(sessions.connection, resumability, app.logger) }
    : {};
  const release = async () => {
    await bus.close();
    await sessions.close();
  };
  return releasingAfter(
    http({ ...base, registry: sessions.registry, peers: sessions.peers, bus, ...eventStores }),
    release,
  );
}

/** A host whose handle runs `release` once it closed (or once it failed to start). */
function releasingAfter<H extends HostHandle>(host: KilnHost<H>, release: () => Promise<void>): KilnHost<H> {
  return {
    async start(port) {
      let handle: H;
      try {
        handle = await host.start(port);
      } catch (error) {
        await release();
        throw error;
      }
      const close = handle.close.bind(handle);
      return Object.assign(handle, {
        async close() {
          try {
            await close();
          } finally {
            await release();
          }
        },
      });
    },
  };
}
