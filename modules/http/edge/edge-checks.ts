// The checks every request to the endpoint passes before Fastify parses its body, as one synchronous onRequest hook
// (four async hooks cost four promises and four microtask turns per request): a well-formed Host, a method the
// endpoint serves, and, against DNS rebinding, a Host naming this machine (on loopback connections, or the names
// configured) and an allowed Origin. The last two are the SDK's own validators, answered as the SDK's Fastify hooks
// answer them (403, code -32000).
import type { Socket } from 'node:net';
import { localhostAllowedHostnames, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { methodRejection } from './endpoint-methods.js';
import { hostHeaderRejection } from './host-header.js';

export interface EdgeCheckOptions {
  readonly endpoint: string;
  /**
   * Hostnames the Host header may name; `loopback` checks only connections that reached a loopback address (a server
   * reached there is meant for this machine), against localhost names; `any` checks none.
   */
  readonly allowedHosts: readonly string[] | 'loopback' | 'any';
  /** Origin hostnames (or `<scheme>://*`) a browser may send requests from. */
  readonly allowedOrigins: readonly string[];
}

export function edgeChecks(options: EdgeCheckOptions) {
  const { endpoint } = options;
  const { allowedHosts } = options;
  const loopbackOnly = allowedHosts === 'loopback';
  const allowedHostnames =
    allowedHosts === 'any' ? undefined : loopbackOnly ? localhostAllowedHostnames() : [...allowedHosts];
  const allowedOrigins = [...options.allowedOrigins];
  // Clients send the same Host on every request: the last one allowed is not parsed again.
  let allowedHost: string | undefined;
  const hostRefusal = (host: string | undefined, socket: Socket): string | undefined => {
    if (allowedHostnames === undefined || (host !== undefined && host === allowedHost)) return undefined;
    if (loopbackOnly && !reachedLoopback(socket)) return undefined;
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
    const rejection = hostHeaderRejection(request) ?? methodRejection(request, endpoint);
    if (rejection) {
      done(rejection);
      return;
    }
    const refused = hostRefusal(request.headers.host, request.raw.socket) ?? originRefusal(request.headers.origin);
    if (refused === undefined) {
      done();
      return;
    }
    // As the SDK's hooks answer: the reply is sent here, and the request goes no further.
    reply.code(403).send({ jsonrpc: '2.0', error: { code: -32000, message: refused }, id: null });
  };
}

/** Whether a connection reached a loopback address of this machine; asked once per socket. */
const loopbackSockets = new WeakMap<Socket, boolean>();

function reachedLoopback(socket: Socket): boolean {
  let loopback = loopbackSockets.get(socket);
  if (loopback === undefined) {
    const address = socket.localAddress ?? '';
    loopback = address === '::1' || /^(?:::ffff:)?127\./.test(address);
    loopbackSockets.set(socket, loopback);
  }
  return loopback;
}
