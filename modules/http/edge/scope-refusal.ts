// The answers a bearer-protected endpoint shares with the rest of the host: the 403 `insufficient_scope` step-up
// (MCP authorization, SEP-2350) and the RFC 6750 WWW-Authenticate challenge. Kept apart from the bearer gate so an
// endpoint served without auth does not load the auth module.
import type { FastifyReply } from 'fastify';
import { edgeError, jsonRpcErrorResponse } from '../../../src/errors/index.js';

/** The 403 step-up answer: one challenge naming every scope the request needs (MCP authorization, SEP-2350). */
export function refuseInsufficientScope(
  reply: FastifyReply,
  requiredScopes: readonly string[],
  body: unknown,
  metadataUrl: string | undefined,
): FastifyReply {
  const scope = requiredScopes.join(' ');
  return reply
    .code(403)
    .header('www-authenticate', challenge({ error: 'insufficient_scope', scope, resource_metadata: metadataUrl }))
    .type('application/json')
    .send(
      jsonRpcErrorResponse(
        requestIdOf(body),
        edgeError('insufficient_scope', `This request needs the scope ${scope}, which the token lacks.`, {
          requiredScopes: [...requiredScopes],
        }),
      ),
    );
}

/**
 * `Bearer k="v", ...`, each value quoted; a quote or backslash in a value is dropped (RFC 6750 §3 grammar). An
 * undefined value is left out (no protected resource metadata to point at, as in jwt mode).
 */
export function challenge(params: Readonly<Record<string, string | undefined>>): string {
  const pairs = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `${key}="${value.replace(/["\\]/g, '')}"`);
  return pairs.length > 0 ? `Bearer ${pairs.join(', ')}` : 'Bearer';
}

function requestIdOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
