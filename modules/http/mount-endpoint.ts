// Mounts a Kiln app's MCP endpoint on a Fastify instance: one endpoint serving both eras (2026-07-28 per request
// through the SDK's handler or the fast path, 2025 by session mode), edge guards that answer every refusal with a
// JSON-RPC error, bearer tokens and scope challenges when auth is on, RFC 9728 metadata, the landing page and the
// health route. The endpoint's own hooks, parsers and error handler live in an encapsulated child context, so the
// instance's other routes keep theirs; the well-known metadata, landing page and health routes go on the instance
// given. Both the `kilnFastify` plugin and the `http()` host mount through here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  InMemoryServerEventBus,
  localhostAllowedOrigins,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { edgeError, type JsonRpcId, jsonRpcErrorResponse, KilnBootError } from '../../src/errors/index.js';
import { type AppPort, type HostHandle, principalOf } from '../../src/host/index.js';
import type { HttpConfig } from '../../src/index.js';
import type { BearerAuth, BearerAuthOptions } from '../auth/index.js';
import { acceptsEventStream, acceptsPostResponses, notAcceptable, prefersHtml } from './edge/accept-header.js';
import { auditEdgeRefusals } from './edge/edge-audit.js';
import { edgeChecks } from './edge/edge-checks.js';
import { hostHeaderRejection } from './edge/host-header.js';
import { errorHandler } from './edge/http-errors.js';
import { installJsonBodyParser } from './edge/json-body-parser.js';
import { inFlightRefusal, isRequest, PrincipalSlots, shareKeyOf } from './edge/principal-slots.js';
import { endpointUrlOf } from './edge/request-origin.js';
import { refuseInsufficientScope } from './edge/scope-refusal.js';
import { withThrottleStatus } from './edge/throttled-answer.js';
import { isLegacyPost } from './era-of.js';
import { openFastPath } from './fast-path/fast-path.js';
import { writeJsonRpcError } from './json-rpc-reply.js';
import { type GetRoute, landingPages } from './landing-page/routes.js';
import { isListenRequest, ListenStreamCap } from './listen/listen-stream-cap.js';
import { TaskListenStreams } from './listen/task-listen-streams.js';
import { publishOn } from './listen/tenant-events.js';
import { TenantListenStreams } from './listen/tenant-listen-streams.js';
import { FailureLog } from './operations/failure-log.js';
import { serveProbes } from './operations/probe-routes.js';
import { serveServerCard } from './operations/server-card.js';
import { stampHttpFacts } from './request-facts.js';
import { metadataUrlOf, serveResourceMetadata } from './resource-metadata.js';
import { type LegacyLegOptions, LegacySessionLeg } from './sessions/legacy-session-leg.js';

export interface EndpointSettings extends LegacyLegOptions {
  readonly config: HttpConfig;
  /** The endpoint's path on the instance (`/mcp`). */
  readonly endpoint: string;
  readonly auth?: BearerAuthOptions;
  /**
   * Hostnames the Host header may name (against DNS rebinding); `loopback` checks it only on connections that reached
   * a loopback address, where only localhost names are allowed; `any` does not check it.
   */
  readonly allowedHosts: readonly string[] | 'loopback' | 'any';
  /** Serve the landing page to a browser visiting the endpoint (and at `landingPath`). */
  readonly landingPage: boolean;
  /** Where people find the landing page besides the endpoint itself (`/` on Kiln's own server). */
  readonly landingPath: string | undefined;
  /** Where the playground script is served when the playground is on. */
  readonly scriptPath: string;
  /** The liveness route's path (`/healthz`), or undefined for none. */
  readonly healthPath: string | undefined;
  /** The readiness route's path (`/readyz`), or undefined for none. */
  readonly readyPath: string | undefined;
}

export interface MountedEndpoint extends HostHandle {
  readonly stopAccepting: () => void;
  /** Live 2025 sessions on this instance. */
  readonly liveSessions: () => number;
  /** Whether the endpoint stopped taking new work. */
  readonly closing: () => boolean;
}

/** Routes the plugin adds to the endpoint's own context. */
const ENDPOINT_METHODS = ['POST', 'GET', 'DELETE'] as const;

export async function mountEndpoint(
  fastify: FastifyInstance,
  app: AppPort,
  settings: EndpointSettings,
): Promise<MountedEndpoint> {
  const { logger } = app;
  const { config } = settings;
  // The endpoint's path as routed: the instance's own prefix (a plugin of the user's, say) comes first.
  const endpoint = `${fastify.prefix}${settings.endpoint}`;
  // The auth module (jose) and the gate load only when auth is on: an open endpoint never pays for them at start.
  const bearer = settings.auth ? new (await import('../auth/index.js')).BearerAuth(settings.auth) : undefined;
  if (bearer && fastify.prefix !== '') {
    // RFC 9728 puts the metadata at the server's root, which a prefixed context cannot route.
    throw new KilnBootError(
      `The MCP endpoint is mounted inside a context with the prefix ${fastify.prefix}, so its protected resource ` +
        `metadata cannot be served at /.well-known/oauth-protected-resource${endpoint}. Register kilnFastify on the ` +
        `root instance with { prefix: '${endpoint}' } instead.`,
    );
  }
  const catalog = app.catalog();
  /** Where a request's challenges point: the metadata of the configured resource, or of the endpoint it reached. */
  // No authorization server to name (jwt mode): no metadata, and challenges point at none (the spec wants one listed).
  const advertises = (bearer?.authorizationServers.length ?? 0) > 0;
  const challengeUrl = (request: FastifyRequest) =>
    advertises ? metadataUrlOf(bearer?.resource ?? endpointUrlOf(request, endpoint)) : undefined;
  if (!bearer && catalog.scopes) {
    logger.warning(
      { scopes: catalog.scopes },
      'Definitions declare @Scopes, but HTTP is served without authentication (MCP_AUTH_MODE=none), so no scope is ' +
        'checked: anyone who can reach the endpoint can call every tool.',
    );
  }

  const failures = new FailureLog(logger);
  // One bus carries every change event: the SDK's listen streams and the live 2025 sessions both subscribe to it.
  const bus =
    settings.bus ??
    new InMemoryServerEventBus((error) => logger.warning({ err: error }, 'Change event delivery failed'));
  const listens = new ListenStreamCap(config.maxListenStreams, config.maxListenStreamsPerPrincipal);
  const inFlight = new PrincipalSlots(config.maxInFlightPerPrincipal);
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
  const serveModern = toNodeHandler(
    { fetch: (request, options) => modern.fetch(request, options).then(withThrottleStatus) },
    { maxRequestBodySize: config.maxBodyBytes },
  );
  const legacy = new LegacySessionLeg(app, config, { ...settings, bus }, (error) => failures.report(error));
  let closing = false;
  const fast = config.fastPath ? await openFastPath(app, { keepAliveMs: config.timeouts.sseKeepAliveMs }) : undefined;
  const stopObserving = [
    app.telemetry.observe('sessions', () => legacy.liveSessions),
    app.telemetry.observe('listen_streams', () => listens.openStreams),
  ];
  const pages = landingPages({
    catalog,
    endpoint,
    protection: (request) =>
      bearer && { authorizationServers: bearer.authorizationServers, metadataUrl: challengeUrl(request) },
    playground: config.playground,
    scriptPath: settings.scriptPath,
  });

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

  // Not async: a request the fast path serves returns nothing, so Fastify leaves its reply alone. Returned (or
  // returned from an async function), the reply is a thenable Fastify waits on by watching the response's end with
  // stream.finished: half a dozen listeners per request. The other branches return a sent reply or a promise.
  function post(request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<void> | undefined {
    const body = request.body;
    // A call the token's scopes do not cover is refused here, with a step-up challenge, before any handler runs,
    // whichever path would serve it.
    const unmetScopes = app.scopeChallenge(body, request.raw.auth);
    if (unmetScopes) return refuseInsufficientScope(reply, unmetScopes, body, challengeUrl(request));
    // One caller's share of this instance: requests in flight, and listen streams (which hold their own slots).
    const share = shareKeyOf(request.raw.auth, request.ip);
    const listening = isListenRequest(body);
    if (!listening && isRequest(body) && !inFlight.holdWhileOpen(share, reply.raw)) {
      return reply
        .code(429)
        .header('retry-after', '1')
        .send(inFlightRefusal(body as { id: JsonRpcId }, inFlight.share));
    }
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
    const listen = !legacyEra && listening;
    const listenRefused = listen ? listens.claim(reply.raw, share) : undefined;
    if (listenRefused) {
      const { status, headers, body: refusal } = listens.refusal(listenRefused);
      return reply.code(status).headers(headers).send(refusal);
    }
    reply.hijack();
    // Where the SDK (or a 2025 session) takes the request, the caller's address and URL ride on the Node request.
    stampHttpFacts(request);
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

  async function getOrDelete(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    if (request.method === 'GET' && !acceptsEventStream(request.headers.accept)) {
      // A browser visiting the endpoint gets the landing page; anything else that cannot read an event stream, 406.
      if (settings.landingPage && prefersHtml(request.headers.accept)) return pages.sendPage(request, reply);
      return reply.code(406).send(notAcceptable('text/event-stream'));
    }
    reply.hijack();
    stampHttpFacts(request);
    return serve(request.raw, reply.raw, () => legacy.handle(request.raw, reply.raw, undefined));
  }

  // The endpoint's own context: its hooks, body parsers and error handler apply to its routes only.
  await fastify.register(async (scope) => {
    installJsonBodyParser(scope, config);
    scope.setErrorHandler(errorHandler(config));
    if (app.auditRefusal) auditEdgeRefusals(scope, app.auditRefusal);
    scope.addHook('onRequest', (_request, reply, done) => {
      // Between the app's stopAccepting and close, and on an instance still running after it: no new work here.
      if (!closing) return done();
      void reply
        .code(503)
        .header('retry-after', '5')
        .send(jsonRpcErrorResponse(null, edgeError('shutting_down', 'The server is shutting down; try again.')));
    });
    scope.addHook(
      'onRequest',
      edgeChecks({
        endpoint,
        allowedHosts: settings.allowedHosts,
        allowedOrigins: [...localhostAllowedOrigins(), ...originHostnames(config.allowedOrigins)],
      }),
    );
    if (bearer) {
      const { bearerGate } = await import('./edge/bearer-gate.js');
      // A browser's visit to the endpoint gets the public landing page, as at any other path.
      const landingVisit = (request: FastifyRequest) =>
        settings.landingPage && request.method === 'GET' && prefersHtml(request.headers.accept);
      scope.addHook('onRequest', bearerGate(bearer, challengeUrl, logger, landingVisit));
    }
    scope.route({
      method: [...ENDPOINT_METHODS],
      url: settings.endpoint,
      // A HEAD would open the event stream; it gets 405 like every method the endpoint does not serve.
      exposeHeadRoute: false,
      handler: (request, reply) =>
        request.method === 'POST'
          ? // Under the trace context the request's headers carry (when an OpenTelemetry SDK is registered), so
            // operation spans continue the caller's trace.
            app.telemetry.inRequestContext(request.headers, () => post(request, reply))
          : getOrDelete(request, reply),
    });
    // Any other method Fastify routes reaches the edge checks' 405 first; this route only gives it a place to match.
    const others = scope.supportedMethods.filter((method) => !(ENDPOINT_METHODS as readonly string[]).includes(method));
    scope.route({ method: others, url: settings.endpoint, handler: async () => undefined });
  });

  // Kiln's routes beside the endpoint, on the instance given: a malformed Host is refused there too (their URLs are
  // built from it), and their refusals are JSON-RPC errors like the endpoint's.
  const handleError = errorHandler(config);
  const get: GetRoute = (url, handler) =>
    fastify.route({
      method: 'GET',
      url,
      onRequest: (request, _reply, done) => done(hostHeaderRejection(request)),
      errorHandler: handleError,
      handler,
    });
  if (bearer && advertises) serveResourceMetadata(get, protectedResource(bearer, endpoint, catalog));
  if (config.serverCard.enabled) {
    serveServerCard(
      get,
      {
        catalog,
        config: config.serverCard,
        endpointPath: endpoint,
        routePath: settings.endpoint,
        protection: (request) =>
          bearer && {
            resourceMetadata: challengeUrl(request),
            authorizationServers: bearer.authorizationServers,
            scopes: catalog.scopes ?? [],
          },
        showCounts: !(bearer && app.config.auth.hideForbiddenTools),
      },
      fastify.prefix === '',
      (path) => fastify.hasRoute({ method: 'GET', url: path }),
    );
  }
  if (settings.landingPage) {
    if (settings.landingPath !== undefined) pages.route(get, settings.landingPath);
    pages.routeScript(get);
  }
  serveProbes(
    get,
    { health: settings.healthPath, ready: settings.readyPath },
    {
      app,
      closing: () => closing,
      bus,
      liveSessions: () => legacy.liveSessions,
      sessionCounts: () => legacy.sessionCounts(),
    },
  );

  return {
    liveSessions: () => legacy.liveSessions,
    closing: () => closing,
    stopAccepting: () => {
      closing = true;
    },
    close: async () => {
      closing = true;
      detachBus();
      for (const stop of stopObserving) stop();
      await legacy.closeAll();
      await modern.close();
      taskListens.closeAll();
      await tenantListens?.close();
      await fast?.close();
    },
  };
}

function protectedResource(bearer: BearerAuth, endpoint: string, catalog: ReturnType<AppPort['catalog']>) {
  return {
    auth: bearer,
    endpointPath: endpoint,
    scopes: catalog.scopes ?? [],
    resourceName: catalog.serverTitle ?? catalog.serverName,
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
