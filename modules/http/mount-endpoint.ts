import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, InMemoryServerEventBus, type ServerEventBus } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { KilnBootError } from '../../src/errors/index.js';
import { type AppPort, type HostHandle } from '../../src/host/index.js';
import type { HttpConfig } from '../../src/index.js';
import type { BearerAuthOptions } from '../auth/index.js';
import { PrincipalSlots } from './edge/principal-slots.js';
import { endpointUrlOf } from './edge/request-origin.js';
import { withThrottleStatus } from './edge/throttled-answer.js';
import { EndpointRequests } from './endpoint-requests.js';
import { registerEndpointScope } from './endpoint-scope.js';
import { openFastPath } from './fast-path/fast-path.js';
import { landingPages } from './landing-page/routes.js';
import { ListenStreamCap } from './listen/listen-stream-cap.js';
import { TaskListenStreams } from './listen/task-listen-streams.js';
import { publishOn } from './listen/tenant-events.js';
import { TenantListenStreams } from './listen/tenant-listen-streams.js';
import { FailureLog } from './operations/failure-log.js';
import { metadataUrlOf } from './resource-metadata.js';
import { type HandshakeLegOptions, HandshakeSessionLeg } from './sessions/handshake-session-leg.js';
import { mountSideRoutes } from './side-routes.js';

export interface EndpointSettings extends HandshakeLegOptions {
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
  const envelopeHandler = (listenBus: ServerEventBus) =>
    createMcpHandler(() => app.createServer('envelope', { exposesSessionId: false }), {
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
  const envelope = envelopeHandler(bus);
  // Under auth, each tenant's listen streams hear only their tenant's resource events (and the unscoped ones).
  const tenantListens = bearer ? new TenantListenStreams(bus, envelopeHandler, config.maxBodyBytes) : undefined;
  // A listen naming tasks (notifications/tasks) is Kiln's own: the SDK's listen router has no such filter.
  const taskListens = new TaskListenStreams(app, bus, config.timeouts.sseKeepAliveMs);
  const detachBus = app.onChange(publishOn(bus));
  const serveEnvelope = toNodeHandler(
    { fetch: (request, options) => envelope.fetch(request, options).then(withThrottleStatus) },
    { maxRequestBodySize: config.maxBodyBytes },
  );
  const handshake = new HandshakeSessionLeg(app, config, { ...settings, bus }, (error) => failures.report(error));
  let closing = false;
  const fast = config.fastPath ? await openFastPath(app, { keepAliveMs: config.timeouts.sseKeepAliveMs }) : undefined;
  const stopObserving = [
    app.telemetry.observe('sessions', () => handshake.liveSessions),
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

  const requests = new EndpointRequests({
    app,
    failures,
    challengeUrl,
    inFlight,
    listens,
    fast,
    serveEnvelope,
    handshake,
    taskListens,
    tenantListens,
    pages,
    landingPage: settings.landingPage,
  });

  await registerEndpointScope(fastify, {
    app,
    config,
    endpoint,
    routePath: settings.endpoint,
    allowedHosts: settings.allowedHosts,
    landingPage: settings.landingPage,
    bearer,
    challengeUrl,
    requests,
    closing: () => closing,
  });

  mountSideRoutes(fastify, {
    app,
    config,
    endpoint,
    routePath: settings.endpoint,
    bearer,
    advertises,
    challengeUrl,
    pages,
    landingPage: settings.landingPage,
    landingPath: settings.landingPath,
    healthPath: settings.healthPath,
    readyPath: settings.readyPath,
    closing: () => closing,
    bus,
    handshake,
  });

  return {
    liveSessions: () => handshake.liveSessions,
    closing: () => closing,
    stopAccepting: () => {
      closing = true;
    },
    close: async () => {
      closing = true;
      detachBus();
      for (const stop of stopObserving) stop();
      await handshake.closeAll();
      await envelope.close();
      taskListens.closeAll();
      await tenantListens?.close();
      await fast?.close();
    },
  };
}
