// The Fastify host: one MCP endpoint serving both eras (2026-07-28 per request through the SDK's handler, 2025 by
// session mode), edge guards that answer every refusal with a JSON-RPC error, bearer tokens and scope challenges when
// auth is on, bounded connections, pages for people, and a graceful shutdown that lets requests finish.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  InMemoryServerEventBus,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import Fastify, { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { edgeError } from '../../src/errors/index.js';
import { type AppPort, type HostHandle, type HttpConfig, type KilnHost, principalOf } from '../../src/index.js';
import type { BearerAuthOptions } from '../auth/index.js';
import { acceptsEventStream, acceptsPostResponses, notAcceptable } from './accept-header.js';
import { closeIdleSockets, connectionLimits } from './connection-limits.js';
import { edgeChecks } from './edge-checks.js';
import { isLegacyPost } from './era-of.js';
import { FailureLog } from './failure-log.js';
import { openFastPath } from './fast-path/fast-path.js';
import { fastifyLogger } from './fastify-logger.js';
import { errorHandler } from './http-errors.js';
import { installJsonBodyParser } from './json-body-parser.js';
import { writeJsonRpcError } from './json-rpc-reply.js';
import { serveLandingPage } from './landing-page-routes.js';
import { type LegacyLegOptions, LegacySessionLeg } from './legacy-session-leg.js';
import { listenFailure } from './listen-failure.js';
import { isListenRequest, ListenStreamCap } from './listen-stream-cap.js';
import { metadataUrlOf, serveResourceMetadata } from './resource-metadata.js';
import { refuseInsufficientScope } from './scope-refusal.js';
import { TaskListenStreams } from './task-listen-streams.js';
import { publishOn } from './tenant-events.js';
import { TenantListenStreams } from './tenant-listen-streams.js';

export interface HttpServing extends HostHandle {
  /** The landing page. */
  readonly url: string;
  /** The MCP endpoint. */
  readonly endpointUrl: string;
  /** Live 2025 sessions on this instance. */
  readonly liveSessions: () => number;
}

export interface HttpHostOptions extends LegacyLegOptions {
  /** Settings over the app's own (MCP_HTTP_* and friends), e.g. `{ port: 0 }` in tests. */
  readonly config?: Partial<HttpConfig>;
  /**
   * Require a bearer token on the MCP endpoint: `authFromEnv()` from mcp-kiln/auth (MCP_AUTH_MODE=jwt or oauth, what
   * `listen()` passes), or your own verifier for opaque tokens. Omitted, the endpoint is open.
   */
  readonly auth?: BearerAuthOptions;
}

/** The Streamable HTTP host: `app.serve(http({ bus, registry }))`. Settings come from the app's configuration. */
export function http(options: HttpHostOptions = {}): KilnHost<HttpServing> {
  return { start: (app) => serveOverHttp(app, { ...app.config.http, ...options.config }, options) };
}

const noRouteSchemas = (): never => {
  throw new Error('The Kiln HTTP host declares no Fastify route schemas, so it has no schema compiler.');
};

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

async function serveOverHttp(app: AppPort, config: HttpConfig, options: HttpHostOptions): Promise<HttpServing> {
  const { logger } = app;
  // The response in flight on each socket, so a client error on it is answered only while nothing was written yet.
  const responding = new WeakMap<Socket, ServerResponse>();
  const fastify = Fastify({
    loggerInstance: fastifyLogger(logger),
    // Per-request access lines would double the log volume of a busy endpoint; failures are logged where they occur.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.maxBodyBytes,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // No route here declares a Fastify schema (the MCP layer checks bodies), so Fastify's default validator and
    // serializer compilers would never run. Naming builders of our own keeps Fastify from loading them at start:
    // Ajv and fast-json-stringify are over a hundred module files.
    schemaController: { compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas } },
    ...connectionLimits(config, (socket) => responding.get(socket)),
  });
  fastify.server.maxConnections = config.maxConnections;
  closeIdleSockets(fastify.server, (socket) => responding.get(socket));
  installJsonBodyParser(fastify, config);
  fastify.setErrorHandler(errorHandler(config));

  const endpoint = config.endpointPath;
  fastify.addHook(
    'onRequest',
    edgeChecks({
      endpoint,
      allowedHostnames: LOOPBACK_HOSTS.has(config.host) ? localhostAllowedHostnames() : undefined,
      allowedOrigins: [...localhostAllowedOrigins(), ...originHostnames(config.allowedOrigins)],
    }),
  );

  // When auth is on every endpoint request carries a verified token; the challenges name the metadata document. The
  // auth module (jose) and the gate load only then: an open endpoint never pays for them at start.
  const bearer = options.auth ? new (await import('../auth/index.js')).BearerAuth(options.auth) : undefined;
  const catalog = app.catalog();
  // The resource URI is the configured one, or the endpoint's URL (known once the server listens).
  const challengeUrl = () => metadataUrlOf(bearer?.resource ?? endpointUrl);
  if (bearer) {
    const { bearerGate } = await import('./bearer-gate.js');
    fastify.addHook('onRequest', bearerGate(bearer, endpoint, challengeUrl, logger));
    serveResourceMetadata(fastify, {
      auth: bearer,
      endpointUrl: () => endpointUrl,
      endpointPath: endpoint,
      scopes: catalog.scopes ?? [],
      resourceName: catalog.serverTitle ?? catalog.serverName,
    });
  } else if (catalog.scopes) {
    logger.warning(
      { scopes: catalog.scopes },
      'Definitions declare @Scopes, but HTTP is served without authentication (MCP_AUTH_MODE=none), so no scope is ' +
        'checked: anyone who can reach the endpoint can call every tool.',
    );
  }

  const failures = new FailureLog(logger);
  // One bus carries every change event: the SDK's listen streams and the live 2025 sessions both subscribe to it.
  const bus =
    options.bus ??
    new InMemoryServerEventBus((error) => logger.warning({ err: error }, 'Change event delivery failed'));
  const listens = new ListenStreamCap(config.maxListenStreams);
  const modernHandler = (listenBus: ServerEventBus) =>
    createMcpHandler(() => app.createServer('modern', { exposesSessionId: false }), {
      legacy: 'reject',
      bus: listenBus,
      maxRequestBodySize: config.maxBodyBytes,
      maxSubscriptions: config.maxListenStreams,
      keepAliveMs: config.timeouts.sseKeepAliveMs,
      onerror: (error) => {
        failures.report(error);
        logger.debug({ err: error }, `2026-07-28 request rejected: ${error.message}`);
      },
    });
  const modern = modernHandler(bus);
  // Under auth, each tenant's listen streams hear only their tenant's resource events (and the unscoped ones).
  const tenantListens = bearer ? new TenantListenStreams(bus, modernHandler, config.maxBodyBytes) : undefined;
  // A listen naming tasks (notifications/tasks) is Kiln's own: the SDK's listen router has no such filter.
  const taskListens = new TaskListenStreams(app, bus, config.timeouts.sseKeepAliveMs);
  const detachBus = app.onChange(publishOn(bus));
  const serveModern = toNodeHandler(modern, { maxRequestBodySize: config.maxBodyBytes });
  const legacy = new LegacySessionLeg(app, config, { ...options, bus }, (error) => failures.report(error));
  let closing = false;
  const fast = config.fastPath ? await openFastPath(app, { keepAliveMs: config.timeouts.sseKeepAliveMs }) : undefined;
  const stopObserving = [
    app.telemetry.observe('sessions', () => legacy.liveSessions),
    app.telemetry.observe('listen_streams', () => listens.openStreams),
  ];

  // Under the trace context the request's headers carry (when an OpenTelemetry SDK is registered), so operation spans
  // continue the caller's trace.
  fastify.post(endpoint, (request, reply) =>
    app.telemetry.inRequestContext(request.headers, () => post(request, reply)),
  );
  // Not async: a request the fast path serves returns nothing, so Fastify leaves its reply alone. Returned (or
  // returned from an async function), the reply is a thenable Fastify waits on by watching the response's end with
  // stream.finished: half a dozen listeners per request. The other branches return a sent reply or a promise.
  function post(request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<void> | undefined {
    const body = request.body;
    // A call the token's scopes do not cover is refused here, with a step-up challenge, before any handler runs,
    // whichever path would serve it.
    const unmetScopes = app.scopeChallenge(body, request.raw.auth);
    if (unmetScopes) return refuseInsufficientScope(reply, unmetScopes, body, challengeUrl());
    // A plain 2026-07-28 request the fast path owns is answered there (after the header-parameter check, which the
    // SDK leaves to Kiln); everything else takes the SDK's entry.
    const claimed = fast && acceptsPostResponses(request.headers.accept, false) ? fast.claim(request) : undefined;
    if (fast && claimed) {
      const headerMismatch = app.headerParamMismatch(body, request.headers);
      if (headerMismatch) return reply.code(400).send(headerMismatch);
      if (fast.serve(claimed, request, reply)) return undefined;
    }
    const legacyEra = isLegacyPost(request.headers, body);
    if (!acceptsPostResponses(request.headers.accept, legacyEra)) {
      return reply.code(406).send(notAcceptable('application/json and text/event-stream'));
    }
    // Header parameters (Mcp-Param-*, SEP-2243): the SDK checks them only for servers it builds, so Kiln does here.
    const headerMismatch = legacyEra ? undefined : app.headerParamMismatch(body, request.headers);
    if (headerMismatch) return reply.code(400).send(headerMismatch);
    const listen = !legacyEra && isListenRequest(body);
    if (listen && !listens.claim(reply.raw)) {
      return reply.code(503).header('retry-after', '5').send(listens.refusal());
    }
    reply.hijack();
    if (legacyEra) return serve(request.raw, reply.raw, () => legacy.handle(request.raw, reply.raw, body));
    if (listen && taskListens.claims(body)) {
      return serve(request.raw, reply.raw, () => taskListens.serve(request.raw, reply.raw, body));
    }
    if (listen && tenantListens) {
      const { tenantId } = principalOf(request.raw.auth);
      return serve(request.raw, reply.raw, () => tenantListens.serve(tenantId, request.raw, reply.raw, body));
    }
    return serve(request.raw, reply.raw, () => serveModern(request.raw, reply.raw, body));
  }
  for (const method of ['GET', 'DELETE'] as const) {
    fastify.route({
      method,
      url: endpoint,
      // A HEAD would open the event stream; it gets 405 like every method the endpoint does not serve.
      exposeHeadRoute: false,
      handler: async (request, reply) => {
        if (method === 'GET' && !acceptsEventStream(request.headers.accept)) {
          return reply.code(406).send(notAcceptable('text/event-stream'));
        }
        reply.hijack();
        return serve(request.raw, reply.raw, () => legacy.handle(request.raw, reply.raw, undefined));
      },
    });
  }

  // `sessions` are the 2025 sessions this instance serves; `clusterSessions` those its registry records anywhere
  // (the same number with the in-memory registry), null while the registry cannot answer.
  fastify.get('/healthz', async () => {
    const clusterSessions = await legacy.sessionCounts().then(
      (counts) => counts.cluster,
      (error: unknown) => {
        logger.warning({ err: error }, 'Health check could not count sessions in the session registry');
        return null;
      },
    );
    const status = closing ? 'shutting-down' : clusterSessions === null ? 'degraded' : 'ok';
    return {
      status,
      server: app.serverInfo,
      sessions: legacy.liveSessions,
      clusterSessions,
      inFlight: app.inFlight,
    };
  });

  serveLandingPage(fastify, {
    catalog,
    endpointUrl: () => endpointUrl,
    protection: () => bearer && { authorizationServers: bearer.authorizationServers, metadataUrl: challengeUrl() },
    playground: config.playground,
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
      if (closing) fastify.server.closeIdleConnections();
    });
  });

  /** host:port as a URL writes it: an IPv6 literal in brackets. */
  const authorityOf = (port: number) => `${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  try {
    await fastify.listen({ host: config.host, port: config.port });
  } catch (error) {
    await fastify.close();
    throw listenFailure(error, authorityOf(config.port));
  }
  const address = fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const origin = `http://${authorityOf(port)}`;
  const endpointUrl = `${origin}${endpoint}`;

  /** Runs a hijacked exchange: whatever it throws still gets an answer, and any 5xx is logged with its cause. */
  function serve(req: IncomingMessage, res: ServerResponse, work: () => Promise<void>): Promise<void> {
    return failures.watch(req, res, async () => {
      try {
        await work();
      } catch (error) {
        failures.report(error);
        if (!res.headersSent)
          writeJsonRpcError(res, 500, edgeError('internal_error', 'Internal error; it was logged.'));
        else res.end();
      }
    });
  }

  // The app drains requests in flight between the two: stop accepting, then end the long-lived streams and sockets.
  let listenerClosed: Promise<void> | undefined;
  return {
    url: `${origin}/`,
    endpointUrl,
    liveSessions: () => legacy.liveSessions,
    stopAccepting: () => {
      closing = true;
      listenerClosed ??= fastify.close();
    },
    close: async () => {
      closing = true;
      listenerClosed ??= fastify.close();
      detachBus();
      for (const stop of stopObserving) stop();
      await legacy.closeAll();
      await modern.close();
      taskListens.closeAll();
      await tenantListens?.close();
      await fast?.close();
      for (const socket of unusedSockets) socket.destroy();
      await listenerClosed;
    },
  };
}

/** MCP_ALLOWED_ORIGINS takes origins or bare hostnames; the SDK's guard compares hostnames. */
function originHostnames(origins: readonly string[] | undefined): string[] {
  return (origins ?? []).map((origin) => {
    try {
      return new URL(origin).hostname;
    } catch {
      return origin;
    }
  });
}
