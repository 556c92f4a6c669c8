// The URL a client used to reach this server, as Fastify reads it: the socket's protocol and the Host header, or,
// behind a proxy the instance trusts (Fastify's `trustProxy`, MCP_HTTP_TRUST_PROXY), X-Forwarded-Proto and
// X-Forwarded-Host. Forwarded headers from anyone else are ignored, so a client cannot make the server name another
// origin. The resource metadata, the challenges and the landing page name this URL when no resource is configured.
import type { FastifyRequest } from 'fastify';

export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The endpoint's URL as the client reached it: its origin and the route's path (with any prefix). */
export function endpointUrlOf(request: FastifyRequest, endpointPath: string): string {
  return `${originOf(request)}${endpointPath}`;
}
