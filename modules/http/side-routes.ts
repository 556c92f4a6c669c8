// Kiln's routes beside the MCP endpoint, on the Fastify instance given: the protected resource metadata (with auth
// and an authorization server to name), the Server Card, the landing page and its playground script, and the probes.
// A malformed Host is refused there too (their URLs are built from it), and their refusals are JSON-RPC errors like
// the endpoint's.
import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppPort } from '../../src/host/index.js';
import type { HttpConfig } from '../../src/index.js';
import type { BearerAuth } from '../auth/index.js';
import { hostHeaderRejection } from './edge/host-header.js';
import { errorHandler } from './edge/http-errors.js';
import type { GetRoute, LandingPages } from './landing-page/routes.js';
import { serveProbes } from './operations/probe-routes.js';
import { serveServerCard } from './operations/server-card.js';
import { serveResourceMetadata } from './resource-metadata.js';
import type { HandshakeSessionLeg } from './sessions/handshake-session-leg.js';

export interface SideRouteParts {
  readonly app: AppPort;
  readonly config: HttpConfig;
  /** The endpoint's path as routed (the instance's prefix included), and as the settings name it. */
  readonly endpoint: string;
  readonly routePath: string;
  readonly bearer: BearerAuth | undefined;
  /** Whether the auth names an authorization server (oauth mode), and so serves metadata. */
  readonly advertises: boolean;
  readonly challengeUrl: (request: FastifyRequest) => string | undefined;
  readonly pages: LandingPages;
  readonly landingPage: boolean;
  readonly landingPath: string | undefined;
  readonly healthPath: string | undefined;
  readonly readyPath: string | undefined;
  readonly closing: () => boolean;
  readonly bus: ServerEventBus;
  readonly handshake: HandshakeSessionLeg;
}

export function mountSideRoutes(fastify: FastifyInstance, parts: SideRouteParts): void {
  const { app, config, endpoint, bearer, advertises, challengeUrl, pages, bus, handshake } = parts;
  const catalog = app.catalog();
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
        routePath: parts.routePath,
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
  if (parts.landingPage) {
    if (parts.landingPath !== undefined) pages.route(get, parts.landingPath);
    pages.routeScript(get);
  }
  serveProbes(
    get,
    { health: parts.healthPath, ready: parts.readyPath },
    {
      app,
      closing: parts.closing,
      bus,
      liveSessions: () => handshake.liveSessions,
      sessionCounts: () => handshake.sessionCounts(),
    },
  );
}

function protectedResource(bearer: BearerAuth, endpoint: string, catalog: ReturnType<AppPort['catalog']>) {
  return {
    auth: bearer,
    endpointPath: endpoint,
    scopes: catalog.scopes ?? [],
    resourceName: catalog.serverTitle ?? catalog.serverName,
  };
}
