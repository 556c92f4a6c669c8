// Bounds the open 2026-07-28 subscriptions/listen streams (MCP_HTTP_MAX_LISTEN_STREAMS). Each is a long-lived
// response holding a socket and a bus subscription; past the cap a listen gets 503 with Kiln's listen_limit error
// rather than the SDK's generic -32603. The SDK's own maxSubscriptions is set to the same number as a backstop.
import type { ServerResponse } from 'node:http';
import { edgeError, jsonRpcErrorResponse } from '../../src/errors/index.js';

export class ListenStreamCap {
  private open = 0;

  constructor(readonly limit: number) {}

  get openStreams(): number {
    return this.open;
  }

  /** Takes a slot for as long as `res` is open; false when every slot is taken. */
  claim(res: ServerResponse): boolean {
    if (this.open >= this.limit) return false;
    this.open++;
    res.once('close', () => {
      this.open--;
    });
    return true;
  }

  refusal() {
    return jsonRpcErrorResponse(
      null,
      edgeError(
        'listen_limit',
        `Listen stream limit reached (${this.limit} open subscriptions/listen streams). Close one or retry later.`,
        { limit: this.limit },
      ),
    );
  }
}

export function isListenRequest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'subscriptions/listen';
}
