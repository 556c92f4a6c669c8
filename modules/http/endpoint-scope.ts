// The MCP endpoint's own Fastify context: its body parser, error handler and hooks apply to its routes only, so the
// instance's other routes keep theirs. In order: refusals are audited (MCP_AUDIT_LOG), a closing endpoint takes no new
// work, the edge checks (Host, Origin, method, Accept), the bearer gate when auth is on; then the endpoint's routes.
import { localhostAllowedOrigins } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { edgeError, jsonRpcErrorResponse } from '../../src/errors/index.js';
import type { AppPort } from '../../src/host/index.js';
import type { HttpConfig } from '../../src/index.js';
import type { BearerAuth } from '../auth/index.js';
import { prefersHtml } from './edge/accept-header.js';
import { auditEdgeRefusals } from './edge/edge-audit.js';
import { edgeChecks } from './edge/edge-checks.js';
import { errorHandler } from './edge/http-errors.js';
import { installJsonBodyParser } from './edge/json-body-parser.js';
import type { EndpointRequests } from './endpoint-requests.js';

/** Routes the plugin adds to the endpoint's own context. */
const ENDPOINT_METHODS = ['POST', 'GET', 'DELETE'] as const;

export interface EndpointScopeParts {
  readonly app: AppPort;
  readonly config: HttpConfig;
  /** The endpoint's path as routed (the instance's prefix included), and as the context routes it. */
  readonly endpoint: string;
  readonly routePath: string;
  readonly allowedHosts: readonly string[] | 'loopback' | 'any';
  readonly landingPage: boolean;
  readonly bearer: BearerAuth | undefined;
  readonly challengeUrl: (request: FastifyRequest) => string | undefined;
  readonly requests: EndpointRequests;
  readonly closing: () => boolean;
}

export async function registerEndpointScope(fastify: FastifyInstance, parts: EndpointScopeParts): Promise<void> {
  const { app, config, endpoint, bearer, challengeUrl, requests } = parts;
  const { logger } = app;
  await fastify.register(async (scope) => {
    installJsonBodyParser(scope, config);
    scope.setErrorHandler(errorHandler(config));
    if (app.auditRefusal) auditEdgeRefusals(scope, app.auditRefusal);
    scope.addHook('onRequest', (_request, reply, done) => {
      // Between the app's stopAccepting and close, and on an instance still running after it: no new work here.
      if (!parts.closing()) return done();
      void reply
        .code(503)
        .header('retry-after', '5')
        .send(jsonRpcErrorResponse(null, edgeError('shutting_down', 'The server is shutting down; try again.')));
    });
    scope.addHook(
      'onRequest',
      edgeChecks({
        endpoint,
        allowedHosts: parts.allowedHosts,
        allowedOrigins: [...localhostAllowedOrigins(), ...originHostnames(config.allowedOrigins)],
      }),
    );
    if (bearer) {
      const { bearerGate } = await import('./edge/bearer-gate.js');
      // A browser's visit to the endpoint gets the public landing page, as at any other path.
      const landingVisit = (request: FastifyRequest) =>
        parts.landingPage && request.method === 'GET' && prefersHtml(request.headers.accept);
      scope.addHook('onRequest', bearerGate(bearer, challengeUrl, logger, landingVisit));
    }
    scope.route({
      method: [...ENDPOINT_METHODS],
      url: parts.routePath,
      // A HEAD would open the event stream; it gets 405 like every method the endpoint does not serve.
      exposeHeadRoute: false,
      handler: (request, reply) =>
        request.method === 'POST'
          ? // Under the trace context the request's headers carry (when an OpenTelemetry SDK is registered), so
            // operation spans continue the caller's trace.
            app.telemetry.inRequestContext(request.headers, () => requests.post(request, reply))
          : requests.getOrDelete(request, reply),
    });
    // Any other method Fastify routes reaches the edge checks' 405 first; this route only gives it a place to match.
    const others = scope.supportedMethods.filter((method) => !(ENDPOINT_METHODS as readonly string[]).includes(method));
    scope.route({ method: others, url: parts.routePath, handler: async () => undefined });
  });
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
