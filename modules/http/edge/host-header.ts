// Refuses a request whose Host header is missing (HTTP/1.1 requires one), repeated, or not a host[:port], with 400
// before anything reads it: hosts and the SDK build URLs from Host, and a malformed one would throw mid-request. A
// repeated Authorization header is refused the same way: Node keeps the first and drops the rest, so which credential
// a request carried would otherwise be decided silently. Behind a trusted proxy URLs are built from X-Forwarded-Proto
// and X-Forwarded-Host instead, which pass the same check.
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { edgeError } from '../../../src/errors/index.js';
import { EdgeRejection } from './edge-rejection.js';

/** RFC 3986 authority without userinfo: an IP literal or a registered name, then an optional port. */
const HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{1,5})?$/;

/** The EdgeRejection (400) naming what is wrong with the host URLs are built from, or undefined when it is valid. */
export function hostHeaderRejection(request: FastifyRequest): EdgeRejection | undefined {
  const problem = hostProblem(request.raw) ?? forwardedProblem(request);
  return problem ? new EdgeRejection(400, edgeError('invalid_http_request', `Bad request: ${problem}.`)) : undefined;
}

/** The last Host and forwarded host found valid: clients send the same ones on every request, each parsed once. */
let lastValidHost: string | undefined;
let lastValidForwardedHost: string | undefined;

function hostProblem(raw: IncomingMessage): string | undefined {
  // rawHeaders, not headersDistinct: Node builds that object on first access, per request.
  let host: string | undefined;
  let authorization = false;
  const { rawHeaders } = raw;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    if (name === 'authorization') {
      if (authorization) return 'the request carries more than one Authorization header; send exactly one';
      authorization = true;
      continue;
    }
    if (name !== 'host') continue;
    if (host !== undefined) return 'the request carries more than one Host header; send exactly one';
    host = rawHeaders[i + 1] as string;
  }
  if (host === undefined) {
    return raw.httpVersion === '1.0' ? undefined : 'the Host header is missing; HTTP/1.1 requires one';
  }
  if (host === lastValidHost) return undefined;
  if (!isHostPort(host)) return `the Host header ${shown(host)} is not a valid host[:port]`;
  lastValidHost = host;
  return undefined;
}

/**
 * The protocol and host Fastify reads from the X-Forwarded-* of a proxy the instance trusts (MCP_HTTP_TRUST_PROXY). A
 * proxy passes on what its client sent (nginx's `$http_host` passes `localhost:99999` on), and a URL built from that
 * would throw mid-request: a 500 for what is the client's mistake.
 */
function forwardedProblem(request: FastifyRequest): string | undefined {
  const { headers } = request;
  if (headers['x-forwarded-host'] === undefined && headers['x-forwarded-proto'] === undefined) return undefined;
  const { protocol, host } = request;
  if (protocol !== 'http' && protocol !== 'https') {
    return `the forwarded protocol ${shown(String(protocol))} is neither http nor https`;
  }
  if (host === headers.host || host === lastValidForwardedHost) return undefined;
  if (!isHostPort(host)) return `the forwarded host ${shown(host)} is not a valid host[:port]`;
  lastValidForwardedHost = host;
  return undefined;
}

/** Whether `host` is a host[:port]; the WHATWG parser, which reads it later, has the last word (IPv6, port range). */
function isHostPort(host: string): boolean {
  if (!HOST_PORT.test(host)) return false;
  try {
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}

const shown = (value: string) => JSON.stringify(value.length <= 60 ? value : `${value.slice(0, 57)}...`);
