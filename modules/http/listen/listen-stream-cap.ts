// Bounds the open 2026-07-28 subscriptions/listen streams (MCP_HTTP_MAX_LISTEN_STREAMS), and one principal's share of
// them (MCP_HTTP_MAX_LISTEN_STREAMS_PER_PRINCIPAL). Each is a long-lived response holding a socket and a bus
// subscription; past the cap a listen gets 503 with Kiln's listen_limit error rather than the SDK's generic -32603,
// past the caller's share 429 with the same reason. The SDK's own maxSubscriptions is set to the cap as a backstop.
import type { ServerResponse } from 'node:http';
import { edgeError, jsonRpcErrorResponse } from '../../../src/errors/index.js';
import { PrincipalSlots } from '../edge/principal-slots.js';

/** Why a listen was refused: every slot here is taken, or the caller holds its share. */
export type ListenRefusal = 'instance' | 'principal';

export class ListenStreamCap {
  private open = 0;
  private readonly shares: PrincipalSlots;

  constructor(
    readonly limit: number,
    share: number = limit,
  ) {
    this.shares = new PrincipalSlots(share);
  }

  get openStreams(): number {
    return this.open;
  }

  /** Takes a slot for `principal` for as long as `res` is open; why not, when a slot cannot be taken. */
  claim(res: ServerResponse, principal = ''): ListenRefusal | undefined {
    if (this.open >= this.limit) return 'instance';
    if (!this.shares.holdWhileOpen(principal, res)) return 'principal';
    this.open++;
    res.once('close', () => {
      this.open--;
    });
    return undefined;
  }

  /** The HTTP status, headers and body of a refusal. */
  refusal(why: ListenRefusal) {
    if (why === 'principal') {
      const share = this.shares.share;
      return {
        status: 429,
        headers: {},
        body: jsonRpcErrorResponse(
          null,
          edgeError(
            'listen_limit',
            `You already hold ${share} open subscriptions/listen streams, the most one caller may hold on this ` +
              'instance. Close one of yours before opening another.',
            { limit: share, share: 'principal' },
          ),
        ),
      };
    }
    return {
      status: 503,
      headers: { 'retry-after': '5' },
      body: jsonRpcErrorResponse(
        null,
        edgeError(
          'listen_limit',
          `Listen stream limit reached (${this.limit} open subscriptions/listen streams). Close one or retry later.`,
          { limit: this.limit, share: 'instance' },
        ),
      ),
    };
  }
}

export function isListenRequest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'subscriptions/listen';
}
