// One POST exchange of a 2025 session served by the session direct path, written as the SDK's streamable HTTP
// transport writes it: a 200 `text/event-stream` answer of `event: message` frames, related messages first and the
// answer last. With resumability on, the stream opens with the SDK's priming frame and every frame is stored in the
// session's event store under this exchange's stream id first and carries the id it got, so a client that lost the
// stream resumes it with Last-Event-ID as on the SDK path. A call that ends quickly with nothing before its answer
// goes out in one write with its length, as the SDK's Node adapter sends a stream already complete; one that sends
// something first, or outlives the keep-alive interval, turns into a stream (with the SDK's keep-alive comments).
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

const KEEP_ALIVE = ': keepalive\n\n';

export interface ExchangeOptions {
  readonly sessionId: string;
  /** Ticks the exchange's keep-alive while it is open (one shared timer for every exchange). */
  readonly keepAlive: KeepAliveTicker;
  /** The session's event store (resumability on), and whether the client's version takes the priming frame. */
  readonly eventStore: ResumableFrameStore | undefined;
  readonly priming: boolean;
  /** The `retry` the priming frame suggests (SEP-1699 polling), as the SDK's transport writes it. */
  readonly retryMs?: number;
  /** Runs when the client cancelled the request (notifications/cancelled). */
  readonly onCancel: () => void;
}

/** A client's resume of a stream ctx.closeStream() ended: the frames it gets, and its end after the answer. */
export interface ResumedStream {
  send(eventId: string, message: JSONRPCMessage): void;
  end(): void;
}

/** The session's event store, which also serves the resume of a stream a direct call's ctx.closeStream() ended. */
export interface ResumableFrameStore extends EventStore {
  /** The stream was closed while its call runs: the stream that resumes it gets what the call sends next. */
  detach(streamId: string): void;
  /** Serves a resume (GET with Last-Event-ID) of a detached stream; false for any other stream. */
  resumeDetached(lastEventId: string, stream: ResumedStream): Promise<boolean>;
  forwardToResumed(streamId: string, eventId: string, message: JSONRPCMessage, last: boolean): void;
}

export class SessionExchange {
  private readonly frames: string[] = [];
  private readonly streamId: string;
  private streaming = false;
  private answered = false;
  /** ctx.closeStream() ended the POST stream: frames go to the store, and to a stream that resumed it. */
  private detached = false;
  /** Store writes in order: a frame goes out only after every earlier one got its event id. */
  private queue: Promise<void>;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: ExchangeOptions,
  ) {
    this.streamId = options.eventStore ? randomUUID() : '';
    this.queue = options.eventStore && options.priming ? this.prime(options.eventStore) : Promise.resolve();
    // The SDK arms its keep-alive the moment it opens the stream; the first tick is when this exchange becomes one.
    options.keepAlive.add(this);
    res.once('close', () => this.stop());
  }

  /**
   * A message related to the request (a log line, a request the SDK's shim sends): one frame before the answer. It
   * turns the exchange into a stream at once, as on the SDK path: the client may have to answer it before the call
   * can end.
   */
  write(message: JSONRPCMessage): Promise<void> {
    this.stream();
    return this.enqueue(message, false);
  }

  /** The answer: the last frame, and the end of the exchange. */
  finish(message: JSONRPCMessage): Promise<void> {
    if (this.answered) return Promise.resolve();
    this.answered = true;
    return this.enqueue(message, true);
  }

  /**
   * The client cancelled the request: the SDK sends no answer and keeps the stream open until the client goes, so
   * the exchange becomes a stream with whatever it holds and waits for the close.
   */
  cancel(): void {
    if (this.answered) return;
    this.answered = true;
    this.stream();
    this.options.onCancel();
  }

  /** Whether ctx.closeStream() can end this exchange's stream: only one a client can resume (priming frame stored). */
  get canCloseStream(): boolean {
    return this.options.eventStore !== undefined && this.options.priming;
  }

  /**
   * ctx.closeStream() (SEP-1699 polling): the stream ends after the frames queued so far, priming frame first, as the
   * SDK's closeSSE does; the call goes on, and what it sends next is stored for the client's resume.
   */
  closeStream(): void {
    if (!this.canCloseStream || this.answered || this.detached) return;
    this.detached = true;
    this.options.eventStore?.detach(this.streamId);
    this.stream();
    this.queue = this.queue.then(() => {
      if (!this.res.writableEnded) this.res.end();
      this.stop();
    });
  }

  private enqueue(message: JSONRPCMessage, last: boolean): Promise<void> {
    const store = this.options.eventStore;
    // As on the SDK path, a frame is stored even after the client went: a resume replays it.
    this.queue = this.queue.then(() =>
      store
        ? store.storeEvent(this.streamId, message).then((eventId) => {
            if (this.detached) this.forward(store, eventId, message, last);
            else this.emit(frameOf(message, eventId), last);
          })
        : this.emit(frameOf(message, undefined), last),
    );
    return this.queue;
  }

  private forward(store: ResumableFrameStore, eventId: string, message: JSONRPCMessage, last: boolean): void {
    store.forwardToResumed(this.streamId, eventId, message, last);
  }

  private prime(store: EventStore): Promise<void> {
    return store
      .storeEvent(this.streamId, {} as JSONRPCMessage)
      .then((id) => this.emit(primingFrame(id, this.options.retryMs), false));
  }

  private emit(frame: string, last: boolean): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (!last) {
      if (this.streaming) this.res.write(frame);
      else this.frames.push(frame);
      return;
    }
    this.frames.push(frame);
    const body = this.frames.join('');
    this.frames.length = 0;
    if (this.streaming) this.res.end(body);
    else this.res.writeHead(200, { ...this.headers(), 'content-length': Buffer.byteLength(body) }).end(body);
    this.stop();
  }

  /** A keep-alive comment, once the exchange has been open a keep-alive interval (again). */
  tick(): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    this.stream();
    this.res.write(KEEP_ALIVE);
  }

  private stream(): void {
    if (this.streaming || this.res.writableEnded || this.res.destroyed) return;
    this.streaming = true;
    this.res.writeHead(200, this.headers());
    this.res.flushHeaders();
    if (this.frames.length > 0) this.res.write(this.frames.join(''));
    this.frames.length = 0;
  }

  /** The answer went out, or the client went away. */
  private stop(): void {
    if (this.res.writableEnded || this.res.destroyed) this.options.keepAlive.delete(this);
  }

  private headers(): Record<string, string> {
    return streamHeaders(this.options.sessionId);
  }
}

/** The SDK's stream headers, names lower-cased as its Node adapter writes them. */
export function streamHeaders(sessionId: string): Record<string, string> {
  return {
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'content-type': 'text/event-stream',
    'mcp-session-id': sessionId,
    'x-accel-buffering': 'no',
  };
}

export function frameOf(message: JSONRPCMessage, eventId: string | undefined): string {
  return `event: message\n${eventId ? `id: ${eventId}\n` : ''}data: ${JSON.stringify(message)}\n\n`;
}

/**
 * Keep-alive comments for the exchanges still open, from one timer instead of one per exchange (most answer within a
 * millisecond): each open exchange ticks once per interval it has been open, the first within an interval and a half.
 */
export class KeepAliveTicker {
  private readonly open = new Map<SessionExchange, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly intervalMs: number) {}

  add(exchange: SessionExchange): void {
    if (!Number.isFinite(this.intervalMs) || this.intervalMs < 1) return;
    this.open.set(exchange, performance.now() + this.intervalMs);
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), Math.max(1, Math.floor(this.intervalMs / 2)));
      this.timer.unref();
    }
  }

  delete(exchange: SessionExchange): void {
    this.open.delete(exchange);
    if (this.open.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private tick(): void {
    const now = performance.now();
    for (const [exchange, due] of this.open) {
      if (due > now) continue;
      this.open.set(exchange, due + this.intervalMs);
      exchange.tick();
    }
  }
}

function primingFrame(eventId: string, retryMs: number | undefined): string {
  return `id: ${eventId}\n${retryMs === undefined ? '' : `retry: ${retryMs}\n`}data: \n\n`;
}
