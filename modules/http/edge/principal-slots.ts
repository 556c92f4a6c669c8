// One principal's share of a per-instance cap: how many of its slots a single caller may hold here, so that one token
// (or, without auth, one address) cannot take every session, listen stream or request slot and lock the others out.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { edgeError, type JsonRpcId, jsonRpcErrorResponse } from '../../../src/errors/index.js';
import { HTTP_FACT_HEADERS, principalKey } from '../../../src/host/index.js';

/**
 * Whose share a request counts against: its verified token's principal (client, subject, tenant), or for an anonymous
 * request the caller's address as the host read it (through MCP_HTTP_TRUST_PROXY behind a proxy).
 */
export function shareKeyOf(auth: AuthInfo | undefined, address: string | undefined): string {
  return principalKey(auth) ?? `address:${address ?? 'unknown'}`;
}

/** The share key of a Node request whose facts the endpoint stamped (a 2025 session's requests). */
export function stampedShareKey(req: IncomingMessage): string {
  const address = req.headers[HTTP_FACT_HEADERS.address];
  return shareKeyOf(
    (req as IncomingMessage & { auth?: AuthInfo }).auth,
    typeof address === 'string' ? address : undefined,
  );
}

export class PrincipalSlots {
  private readonly taken = new Map<string, number>();

  constructor(readonly share: number) {}

  heldBy(key: string): number {
    return this.taken.get(key) ?? 0;
  }

  /** Takes one of `key`'s slots; false when it holds its whole share. */
  take(key: string): boolean {
    const held = this.taken.get(key) ?? 0;
    if (held >= this.share) return false;
    this.taken.set(key, held + 1);
    return true;
  }

  release(key: string): void {
    const held = this.taken.get(key) ?? 0;
    if (held <= 1) this.taken.delete(key);
    else this.taken.set(key, held - 1);
  }

  /** Takes a slot for as long as `res` is open; false when `key` holds its whole share. */
  holdWhileOpen(key: string, res: ServerResponse): boolean {
    if (!this.take(key)) return false;
    res.once('close', () => this.release(key));
    return true;
  }
}

/** A JSON-RPC request (it has an id and a method), as opposed to a notification or a client's answer. */
export function isRequest(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const message = body as { id?: unknown; method?: unknown };
  return message.id !== undefined && typeof message.method === 'string';
}

/** The 429 answer of a request past its principal's share of requests in flight; it was not run. */
export function inFlightRefusal(request: { id: JsonRpcId }, share: number) {
  return jsonRpcErrorResponse(
    request.id,
    edgeError(
      'in_flight_limit',
      `You already have ${share} requests in flight on this instance, the most one caller may have at once. ` +
        'Wait for one of them to answer, then send this again: it was not run.',
      { limit: share },
    ),
  );
}
