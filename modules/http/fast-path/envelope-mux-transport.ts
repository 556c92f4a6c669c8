// One transport carrying many concurrent 2026-07-28 HTTP exchanges to one long-lived, envelope-era-bound server: each
// request is delivered through the protocol layer's normal message path and its answer written straight to its own
// Fastify reply, as JSON, or as an event stream once the call sends a notification (progress, a log line) first.
import type { AuthInfo, JSONRPCMessage, JSONRPCRequest, TransportSendOptions } from '@modelcontextprotocol/server';
import type { FastifyReply } from 'fastify';
import { throttleRetryAfter } from '../edge/throttled-answer.js';
import { ENVELOPE_CLASSIFICATION, EnvelopeBoundTransport, errorHttpStatus } from './sdk-envelope-binding.js';

type RequestId = JSONRPCRequest['id'];

/** An error the SDK's edge classifier would have answered before dispatch, with its status. */
export interface EdgeAnswer {
  readonly status: number;
  readonly body: string;
}

interface Exchange {
  readonly reply: FastifyReply;
  /** True while the message is being delivered: an error sent now came from the dispatch ladder, not a handler. */
  inDispatchWindow: boolean;
  streaming: boolean;
  done: boolean;
  keepAlive?: NodeJS.Timeout;
  /** What the SDK's edge would answer instead of a ladder error, when it would have rejected the request first. */
  readonly edgeAnswer: () => EdgeAnswer | undefined;
  /** Told when a handler answered: the request passed every check of the dispatch ladder. */
  readonly handled?: () => void;
}

const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

export class EnvelopeMuxTransport extends EnvelopeBoundTransport {
  readonly #exchanges = new Map<RequestId, Exchange>();
  readonly #keepAliveMs: number;

  constructor(keepAliveMs: number) {
    super();
    this.#keepAliveMs = keepAliveMs;
  }

  /** An id in flight here cannot be reused until it answers: the protocol layer keys its handlers by id. */
  isServing(id: RequestId): boolean {
    return this.#exchanges.has(id);
  }

  get serving(): number {
    return this.#exchanges.size;
  }

  /** Delivers one claimed request; its answer is written to `reply` by send(). */
  dispatch(
    message: JSONRPCRequest,
    reply: FastifyReply,
    authInfo: AuthInfo | undefined,
    request: Request,
    edgeAnswer: () => EdgeAnswer | undefined,
    handled?: () => void,
  ): void {
    const exchange: Exchange = { reply, inDispatchWindow: true, streaming: false, done: false, edgeAnswer, handled };
    this.#exchanges.set(message.id, exchange);
    // A client that goes away cancels its call through the protocol's own cancellation path (the handler's signal).
    reply.raw.once('close', () => {
      if (exchange.done) return;
      this.#finish(message.id, exchange);
      this.onmessage?.(
        {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: message.id, reason: 'client disconnected' },
        },
        { classification: ENVELOPE_CLASSIFICATION },
      );
    });
    try {
      this.onmessage?.(message, { classification: ENVELOPE_CLASSIFICATION, request, ...(authInfo && { authInfo }) });
    } finally {
      exchange.inDispatchWindow = false;
    }
  }

  override async start(): Promise<void> {}

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const isResponse = 'result' in message || 'error' in message;
    const id = isResponse ? (message as { id: RequestId }).id : options?.relatedRequestId;
    const exchange = id === undefined ? undefined : this.#exchanges.get(id);
    // Notifications outside a call (change events) travel on the bus and listen streams, never here.
    if (exchange === undefined || exchange.done) return;
    const frame = JSON.stringify(message);
    if (!isResponse) {
      this.#stream(exchange).write(`event: message\ndata: ${frame}\n\n`);
      return;
    }
    this.#finish(id as RequestId, exchange);
    if (!exchange.inDispatchWindow) exchange.handled?.();
    if (exchange.streaming) {
      exchange.reply.raw.end(`event: message\ndata: ${frame}\n\n`);
      return;
    }
    const code = 'error' in message ? message.error.code : undefined;
    if (code !== undefined && exchange.inDispatchWindow) {
      const edge = exchange.edgeAnswer();
      if (edge) return void this.#json(exchange, edge.status, edge.body);
    }
    const retryAfter = code === undefined ? undefined : throttleRetryAfter((message as { error: unknown }).error);
    if (retryAfter !== undefined) exchange.reply.header('retry-after', retryAfter);
    const status =
      retryAfter !== undefined ? 429 : code === undefined ? 200 : errorHttpStatus(code, exchange.inDispatchWindow);
    this.#json(exchange, status, frame);
  }

  /** Ends every exchange still open; the server's close aborts their handlers. */
  override async close(): Promise<void> {
    for (const [id, exchange] of this.#exchanges) {
      this.#finish(id, exchange);
      if (exchange.streaming) exchange.reply.raw.end();
      else exchange.reply.raw.destroy();
    }
    this.onclose?.();
  }

  #json(exchange: Exchange, status: number, body: string): void {
    exchange.reply.code(status).header('content-type', 'application/json').send(body);
  }

  /** The exchange's event stream, opened on its first notification (the SDK's 'auto' response mode). */
  #stream(exchange: Exchange) {
    const raw = exchange.reply.raw;
    if (!exchange.streaming) {
      exchange.streaming = true;
      exchange.reply.hijack();
      raw.writeHead(200, EVENT_STREAM_HEADERS);
      if (Number.isFinite(this.#keepAliveMs) && this.#keepAliveMs >= 1) {
        exchange.keepAlive = setInterval(() => raw.write(': keepalive\n\n'), this.#keepAliveMs);
        exchange.keepAlive.unref();
      }
    }
    return raw;
  }

  #finish(id: RequestId, exchange: Exchange): void {
    exchange.done = true;
    clearInterval(exchange.keepAlive);
    if (this.#exchanges.get(id) === exchange) this.#exchanges.delete(id);
  }
}
