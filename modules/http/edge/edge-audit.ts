// Refusals the host makes itself go into the audit trail (MCP_AUDIT_LOG=on) like the calls the runner answers: a
// missing or bad token (401), missing scopes (403), a caller over its share of requests in flight (429). Read from
// the reply as it is sent, so every refusal path is covered by one hook. Refusals the runner made (rate limits,
// quotas) are audited there, once.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EdgeRefusal } from '../../../src/host/index.js';

const AUDITED_STATUSES: ReadonlySet<number> = new Set([401, 403, 429]);
/** Refusals the operation runner already audited. */
const RUNNER_REASONS: ReadonlySet<string> = new Set(['rate_limited', 'quota_exceeded']);

export function auditEdgeRefusals(scope: FastifyInstance, audit: (refusal: EdgeRefusal) => void): void {
  scope.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    if (AUDITED_STATUSES.has(reply.statusCode) && typeof payload === 'string') {
      const reason = reasonOf(payload);
      if (reason !== undefined && !RUNNER_REASONS.has(reason)) audit(refusalOf(request, reason));
    }
    done(null, payload);
  });
}

function reasonOf(payload: string): string | undefined {
  try {
    const reason = (JSON.parse(payload) as { error?: { data?: { reason?: unknown } } }).error?.data?.reason;
    return typeof reason === 'string' ? reason : undefined;
  } catch {
    return undefined;
  }
}

function refusalOf(request: FastifyRequest, reason: string): EdgeRefusal {
  const body = request.body as
    | { id?: unknown; method?: unknown; params?: { name?: unknown; uri?: unknown } }
    | undefined;
  const method = typeof body?.method === 'string' ? body.method : undefined;
  const target = body?.params?.name ?? body?.params?.uri;
  const id = body?.id;
  return {
    reason,
    ...(method === undefined ? {} : { method }),
    ...(typeof target === 'string' ? { target } : {}),
    ...(typeof id === 'string' || typeof id === 'number' ? { requestId: String(id) } : {}),
    ...(request.raw.auth ? { authInfo: request.raw.auth } : {}),
    address: request.ip,
  };
}
