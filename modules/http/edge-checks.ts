// The checks every request passes before Fastify parses its body, as one synchronous onRequest hook (four async
// hooks cost four promises and four microtask turns per request): a well-formed Host, a method the endpoint serves,
// and, against DNS rebinding, a Host naming this machine (loopback binds) and an allowed Origin. The last two are
// the SDK's own validators, answered as the SDK's Fastify hooks answer them (403, code -32000).
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { methodRejection } from './endpoint-methods.js';
import { hostHeaderRejection } from './host-header.js';

export interface EdgeCheckOptions {
  readonly endpoint: string;
  /** Hostnames the Host header may name; undefined when the server is bound beyond loopback (no Host check). */
  readonly allowedHostnames: readonly string[] | undefined;
  /** Origin hostnames (or `<scheme>://*`) a browser may send requests from. */
  readonly allowedOrigins: readonly string[];
}

export function edgeChecks(options: EdgeCheckOptions) {
  const { endpoint } = options;
  const allowedHostnames = options.allowedHostnames && [...options.allowedHostnames];
  const allowedOrigins = [...options.allowedOrigins];
  // Clients send the same Host on every request: the last one allowed is not parsed again.
  let allowedHost: string | undefined;
  const hostRefusal = (host: string | undefined): string | undefined => {
    if (allowedHostnames === undefined || (host !== undefined && host === allowedHost)) return undefined;
    const result = validateHostHeader(host, allowedHostnames);
    if (!result.ok) return result.message;
    allowedHost = host;
    return undefined;
  };
  const originRefusal = (origin: string | undefined): string | undefined => {
    if (origin === undefined) return undefined;
    const result = validateOriginHeader(origin, allowedOrigins);
    return result.ok ? undefined : result.message;
  };
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const rejection = hostHeaderRejection(request.raw) ?? methodRejection(request, endpoint);
    if (rejection) {
      done(rejection);
      return;
    }
    const refused = hostRefusal(request.headers.host) ?? originRefusal(request.headers.origin);
    if (refused === undefined) {
      done();
      return;
    }
    // As the SDK's hooks answer: the reply is sent here, and the request goes no further.
    reply.code(403).send({ jsonrpc: '2.0', error: { code: -32000, message: refused }, id: null });
  };
}
