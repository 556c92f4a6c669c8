// ctx.http for the requests this host serves: the headers, the caller's address and the URL as Fastify read them
// (through the instance's trustProxy). A path Kiln runs itself reads them from the Fastify request; before a request
// goes to the SDK (or to a 2025 session), the address and URL are stamped onto the Node request under the names the
// runtime reads back (HTTP_FACT_HEADERS), replacing anything a client sent under them.
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { HTTP_FACT_HEADERS, httpInfoFromNodeHeaders } from '../../src/host/index.js';
import type { HttpRequestInfo } from '../../src/index.js';
import { originOf } from './edge/request-origin.js';

/** ctx.http of a request Kiln runs itself, read on first use. */
export function httpFactsOf(request: FastifyRequest): () => HttpRequestInfo {
  return () => ({
    ...httpInfoFromNodeHeaders(request.raw.headers),
    remoteAddress: request.ip,
    url: `${originOf(request)}${request.url}`,
  });
}

/**
 * Stamps the caller's address and the request's URL onto the Node request, for the SDK's rebuilt request to carry:
 * in `headers` and in `rawHeaders` (which some adapters read instead), each replacing whatever a client sent.
 */
export function stampHttpFacts(request: FastifyRequest): void {
  const { raw } = request;
  const stamps: Record<string, string> = {
    [HTTP_FACT_HEADERS.address]: request.ip,
    [HTTP_FACT_HEADERS.url]: `${originOf(request)}${request.url}`,
  };
  const rawHeaders: string[] = [];
  for (let i = 0; i < raw.rawHeaders.length; i += 2) {
    const name = raw.rawHeaders[i] as string;
    if (Object.hasOwn(stamps, name.toLowerCase())) continue;
    rawHeaders.push(name, raw.rawHeaders[i + 1] as string);
  }
  for (const [name, value] of Object.entries(stamps)) {
    raw.headers[name] = value;
    rawHeaders.push(name, value);
  }
  raw.rawHeaders = rawHeaders;
}

/** ctx.http of a stamped Node request (a 2025 session's direct call), read on first use. */
export function stampedHttpFacts(raw: IncomingMessage): () => HttpRequestInfo {
  return () => httpInfoFromNodeHeaders(raw.headers);
}

/** The web Request the SDK's dispatch takes as `request`, for a stamped Node request the host dispatches itself. */
export function webRequestOf(raw: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const url = raw.headers[HTTP_FACT_HEADERS.url];
  return new Request(typeof url === 'string' ? url : `http://localhost${raw.url ?? '/'}`, {
    method: raw.method ?? 'POST',
    headers,
  });
}
