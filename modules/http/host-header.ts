// Refuses a request whose Host header is missing (HTTP/1.1 requires one), repeated, or not a host[:port], with 400
// before anything reads it: hosts and the SDK build URLs from Host, and a malformed one would throw mid-request. A
// repeated Authorization header is refused the same way: Node keeps the first and drops the rest, so which credential
// a request carried would otherwise be decided silently.
import type { IncomingMessage } from 'node:http';
import { edgeError } from '../../src/errors/index.js';
import { EdgeRejection } from './edge-rejection.js';

/** RFC 3986 authority without userinfo: an IP literal or a registered name, then an optional port. */
const HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{1,5})?$/;

/** The EdgeRejection (400) naming what is wrong with Host, or undefined when it is a valid host[:port]. */
export function hostHeaderRejection(raw: IncomingMessage): EdgeRejection | undefined {
  const problem = hostProblem(raw);
  return problem ? new EdgeRejection(400, edgeError('invalid_http_request', `Bad request: ${problem}.`)) : undefined;
}

/** The last Host value found valid: clients send the same one on every request, so it is parsed once. */
let lastValidHost: string | undefined;

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
  if (HOST_PORT.test(host) && parsesAsHost(host)) {
    lastValidHost = host;
    return undefined;
  }
  const shown = host.length <= 60 ? host : `${host.slice(0, 57)}...`;
  return `the Host header ${JSON.stringify(shown)} is not a valid host[:port]`;
}

/** The WHATWG parser has the last word (IPv6 syntax, percent-encoding, port range), as it is what later reads it. */
function parsesAsHost(host: string): boolean {
  try {
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}
