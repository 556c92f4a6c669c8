// Bearer tokens at the MCP endpoint (MCP_AUTH_MODE=jwt or oauth): every request carries `Authorization: Bearer`,
// verified before anything else reads it; the verified AuthInfo goes on `request.raw.auth`, which the SDK hands to
// handlers on both eras. Refusals follow RFC 6750 and the MCP authorization spec: 401 with a WWW-Authenticate
// challenge naming the protected resource metadata (RFC 9728) for a missing or bad token, 400 for a token in the
// query string, 403 `insufficient_scope` naming every scope the operation needs, and 503 (never 401) when the token
// could not be verified at all, so a client keeps a good token through an authorization-server outage. The host loads
// this file (and with it mcp-kiln/auth and jose) only when auth is on.
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { FastifyRequest } from 'fastify';
import { edgeError } from '../../../src/errors/index.js';
import type { Logger } from '../../../src/index.js';
import { AuthUnavailableError, type BearerAuth, InvalidTokenError } from '../../auth/index.js';
import { EdgeRejection } from './edge-rejection.js';
import { challenge } from './scope-refusal.js';

declare module 'node:http' {
  interface IncomingMessage {
    /** The verified token's AuthInfo, set by the bearer gate; the SDK's Node adapters forward it to handlers. */
    auth?: AuthInfo;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The onRequest hook of the endpoint's context, guarding each of its routes but the requests `exempt` names;
 * `metadataUrl` is where a request's challenge points its client.
 */
export function bearerGate(
  auth: BearerAuth,
  metadataUrl: (request: FastifyRequest) => string | undefined,
  logger: Logger,
  exempt: (request: FastifyRequest) => boolean,
) {
  return async (request: FastifyRequest): Promise<void> => {
    if (exempt(request)) return;
    const query = queryOf(request.url);
    if (query !== undefined && new URLSearchParams(query).has('access_token')) {
      // RFC 6750 §2.3 allows it; MCP forbids it: URLs end up in logs, histories and Referer headers.
      throw new EdgeRejection(
        400,
        edgeError('token_in_query', 'Access tokens in the query string are refused: send Authorization: Bearer.'),
        { 'www-authenticate': challenge({ error: 'invalid_request', resource_metadata: metadataUrl(request) }) },
      );
    }
    const token = bearerToken(request.raw);
    if (token === undefined) {
      // RFC 6750 §3.1: a request without credentials gets a challenge with no error code.
      throw new EdgeRejection(
        401,
        edgeError('authentication_required', 'This MCP server requires a bearer token (Authorization: Bearer).'),
        { 'www-authenticate': challenge({ resource_metadata: metadataUrl(request) }) },
      );
    }
    try {
      request.raw.auth = await auth.authenticate(token);
    } catch (error) {
      if (error instanceof InvalidTokenError) {
        logger.debug({ reason: error.message }, `Bearer token refused: ${error.message}`);
        throw new EdgeRejection(401, edgeError('invalid_token', `Invalid bearer token: ${error.message}`), {
          'www-authenticate': challenge({
            error: 'invalid_token',
            error_description: error.message,
            resource_metadata: metadataUrl(request),
          }),
        });
      }
      const cause = error instanceof AuthUnavailableError ? error : new AuthUnavailableError(String(error));
      throw new EdgeRejection(
        503,
        edgeError('auth_unavailable', 'The server cannot verify tokens right now; keep the token and retry shortly.'),
        { 'retry-after': '5' },
        cause,
      );
    }
  };
}

/** The token of the one `Authorization: Bearer` header; undefined when there is none (or another scheme). */
function bearerToken(raw: IncomingMessage): string | undefined {
  const header = raw.headers.authorization;
  if (typeof header !== 'string') return undefined;
  return BEARER.exec(header)?.[1] ?? (/^Bearer\b/i.test(header) ? '' : undefined);
}

function queryOf(url: string): string | undefined {
  const query = url.indexOf('?');
  return query < 0 ? undefined : url.slice(query + 1);
}
