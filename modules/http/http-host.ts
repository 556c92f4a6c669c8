// The `http()` host: Kiln serves the app on a Fastify server it listens with, the endpoint at MCP_HTTP_ENDPOINT_PATH,
// the landing page at `/` and the health route at `/healthz`. The server is Kiln's own (with MCP_HTTP_* connection
// limits and timeouts) unless you pass one (`fastify`); `configure` adds your plugins, hooks and routes before Kiln's.
// Either way it mounts the endpoint the way the `kilnFastify` plugin does, and a graceful shutdown lets requests
// finish.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { AppPort, HostHandle, KilnHost } from '../../src/host/index.js';
import type { HttpConfig } from '../../src/index.js';
import type { BearerAuthOptions } from '../auth/index.js';
import { closeIdleSockets, connectionLimits } from './edge/connection-limits.js';
import { methodRejection } from './edge/endpoint-methods.js';
import { hostHeaderRejection } from './edge/host-header.js';
import { errorHandler } from './edge/http-errors.js';
import { fastifyLogger } from './fastify-logger.js';
import { PLAYGROUND_SCRIPT_PATH } from './landing-page/paths.js';
import { mountEndpoint } from './mount-endpoint.js';
import { listenFailure } from './operations/listen-failure.js';
import type { HandshakeLegOptions } from './sessions/handshake-session-leg.js';

export interface HttpServing extends HostHandle {
  /** The landing page. */
  readonly url: string;
  /** The MCP endpoint. */
  readonly endpointUrl: string;
  /** Live 2025 sessions on this instance. */
  readonly liveSessions: () => number;
  /** The Fastify instance serving, for `inject()` in tests and anything else Fastify offers. */
  readonly fastify: FastifyInstance;
}

export interface HttpHostOptions extends HandshakeLegOptions {
  /** Settings over the app's own (MCP_HTTP_* and friends), e.g. `{ port: 0 }` in tests. */
  readonly config?: Partial<HttpConfig>;
  /**
   * Require a bearer token on the MCP endpoint: `authFromEnv()` from mcp-kiln/auth (MCP_AUTH_MODE=jwt or oauth, what
   * `listen()` passes), or your own verifier for opaque tokens. Omitted, the endpoint is open.
   */
  readonly auth?: BearerAuthOptions;
  /**
   * A Fastify instance you created, to serve on instead of Kiln's own. Kiln adds its routes and listens on it; its
   * server options (timeouts, connection limits, `trustProxy`, body limit) are yours, and MCP_HTTP_* settings of
   * that kind do not apply.
   */
  readonly fastify?: FastifyInstance;
  /** Runs before Kiln's routes are added: register your plugins (CORS, Helmet, rate limits), hooks and routes here. */
  readonly configure?: (fastify: FastifyInstance) => void | Promise<void>;
}

/** The Streamable HTTP host: `app.serve(http({ bus, registry }))`. Settings come from the app's configuration. */
export function http(options: HttpHostOptions = {}): KilnHost<HttpServing> {
  return { start: (app) => serveOverHttp(app, { ...app.config.http, ...options.config }, options) };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

async function serveOverHttp(app: AppPort, config: HttpConfig, options: HttpHostOptions): Promise<HttpServing> {
  // The response in flight on each socket, so a client error on it is answered only while nothing was written yet.
  const responding = new WeakMap<Socket, ServerResponse>();
  const owned = options.fastify === undefined;
  const fastify = options.fastify ?? kilnServer(app, config, responding);
  if (owned) refuseMalformedRequests(fastify, config);
  await options.configure?.(fastify);
  const endpoint = await mountEndpoint(fastify, app, {
    ...options,
    config,
    endpoint: config.endpointPath,
    // Bound to loopback, the server is for this machine: a Host naming another one is a DNS-rebinding attempt.
    allowedHosts: LOOPBACK_HOSTS.has(config.host) ? 'loopback' : 'any',
    landingPage: true,
    landingPath: '/',
    scriptPath: PLAYGROUND_SCRIPT_PATH,
    healthPath: '/healthz',
    readyPath: '/readyz',
  });

  // Sockets a client opened but never sent a request on (a pooled pre-connect): Node's close() counts them as busy,
  // so each would hold shutdown until its own timeout.
  const unusedSockets = new Set<Socket>();
  fastify.server.on('connection', (socket: Socket) => {
    unusedSockets.add(socket);
    socket.once('close', () => unusedSockets.delete(socket));
  });
  fastify.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    unusedSockets.delete(socket);
    responding.set(socket, response);
    // A response emits 'close' once, after it finished or when its connection went away (one listener, per request).
    response.on('close', () => {
      if (responding.get(socket) === response) responding.delete(socket);
      // Node's close() ends only the connections idle at that moment: one whose response finishes later stays kept
      // alive until the client drops it (undici: 4 s). During shutdown, close each as soon as its response ends.
      if (endpoint.closing()) fastify.server.closeIdleConnections();
    });
  });
  if (owned) {
    fastify.server.maxConnections = config.maxConnections;
    closeIdleSockets(fastify.server, (socket) => responding.get(socket));
  }

  /** host:port as a URL writes it: an IPv6 literal in brackets. */
  const authorityOf = (port: number) => `${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  try {
    await fastify.listen({ host: config.host, port: config.port });
  } catch (error) {
    await endpoint.close();
    await fastify.close();
    throw listenFailure(error, authorityOf(config.port));
  }
  const address = fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const origin = `http://${authorityOf(port)}`;

  // The app drains requests in flight between the two: stop accepting, then end the long-lived streams and sockets.
  let listenerClosed: Promise<void> | undefined;
  return {
    url: `${origin}/`,
    endpointUrl: `${origin}${config.endpointPath}`,
    fastify,
    liveSessions: endpoint.liveSessions,
    stopAccepting: () => {
      endpoint.stopAccepting();
      listenerClosed ??= fastify.close();
    },
    close: async () => {
      listenerClosed ??= fastify.close();
      await endpoint.close();
      for (const socket of unusedSockets) socket.destroy();
      await listenerClosed;
    },
  };
}

/** Kiln's own server: the app's logger, MCP_HTTP_* body limit, timeouts and connection limits, trusted proxies. */
function kilnServer(app: AppPort, config: HttpConfig, responding: WeakMap<Socket, ServerResponse>) {
  return Fastify({
    loggerInstance: fastifyLogger(app.logger),
    // Per-request access lines would double the log volume of a busy endpoint; failures are logged where they occur.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.maxBodyBytes,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    trustProxy: trustProxyOption(config),
    ...connectionLimits(config, (socket) => responding.get(socket)),
  });
}

/**
 * On Kiln's own server, every path refuses a malformed Host, and the endpoint refuses a method Fastify cannot route
 * (PROPFIND) with 405, each as a JSON-RPC error: nothing there is anyone else's.
 */
function refuseMalformedRequests(fastify: FastifyInstance, config: HttpConfig): void {
  fastify.setErrorHandler(errorHandler(config));
  fastify.addHook('onRequest', (request, _reply, done) =>
    done(hostHeaderRejection(request) ?? methodRejection(request, config.endpointPath)),
  );
}

/** MCP_HTTP_TRUST_PROXY as Fastify takes it: a hop count is a function of the hop's index, as Fastify makes one. */
export function trustProxyOption(config: HttpConfig): boolean | string[] | ((address: string, hop: number) => boolean) {
  const { trustProxy } = config;
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return typeof trustProxy === 'object' ? [...trustProxy] : trustProxy;
}
