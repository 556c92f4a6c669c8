// MCP over plain fetch, for tests that assert on frames: a 2025 session's requests and its GET stream (with or
// without Last-Event-ID), a 2026-07-28 subscriptions/listen stream, and one 2026-07-28 request's response stream.
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type SubscriptionFilter,
} from '@modelcontextprotocol/client';
import { ENVELOPE_VERSION, envelopeHeaders, MCP_ACCEPT, openRawSession, post, sessionHeaders } from './http-server.js';
import { parseFrames, type SseFrame, SseStream } from './sse-frames.js';

export class RawHandshakeSession {
  private nextId = 1;

  private constructor(
    private readonly endpointUrl: string,
    readonly sessionId: string,
  ) {}

  /** initialize + notifications/initialized, as a 2025 client opens a session. */
  static async open(endpointUrl: string): Promise<RawHandshakeSession> {
    return new RawHandshakeSession(endpointUrl, await openRawSession(endpointUrl));
  }

  /** Sends one request and returns every frame of its response stream (which ends with the response). */
  async request(method: string, params: Record<string, unknown> = {}): Promise<SseFrame[]> {
    const message = { jsonrpc: '2.0', id: this.nextId++, method, params };
    const response = await post(this.endpointUrl, message, sessionHeaders(this.sessionId));
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${method} answered HTTP ${response.status}: ${text}`);
    return parseFrames(text);
  }

  /** Opens the session's standalone GET stream; with `lastEventId`, resumes it from that event. */
  async openStream(lastEventId?: string): Promise<SseStream> {
    const abort = new AbortController();
    const response = await fetch(this.endpointUrl, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        ...sessionHeaders(this.sessionId),
        ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
      },
      signal: abort.signal,
    });
    if (response.status !== 200) throw new StreamRefused(response.status, await response.text());
    return new SseStream(response, abort);
  }

  /**
   * Reconnects a dropped GET stream with Last-Event-ID. Until the server notices the drop it still holds the old
   * stream and answers 409, so that one answer is retried for a short while.
   */
  async resumeStream(lastEventId: string, withinMs = 2_000): Promise<SseStream> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      try {
        return await this.openStream(lastEventId);
      } catch (error) {
        if (!(error instanceof StreamRefused) || error.status !== 409 || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  }
}

/** A GET or listen request the server answered with something other than an event stream. */
export class StreamRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`The stream was refused with HTTP ${status}: ${body}`);
  }
}

/** Opens a 2026-07-28 subscriptions/listen stream; its first frame should be the acknowledgement. */
export async function openListenStream(
  endpointUrl: string,
  notifications: SubscriptionFilter,
  id = 'listen-1',
): Promise<SseStream> {
  const abort = new AbortController();
  const method = 'subscriptions/listen';
  const response = await fetch(endpointUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...envelopeHeaders(method) },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: envelopeEnvelope(), notifications } }),
    signal: abort.signal,
  });
  if (response.status !== 200) throw new StreamRefused(response.status, await response.text());
  return new SseStream(response, abort);
}

/** One 2026-07-28 request, its `_meta` merged into the envelope; returns the frames of its response stream. */
export async function postEnvelope(
  endpointUrl: string,
  method: string,
  params: { readonly _meta?: Record<string, unknown>; readonly [key: string]: unknown },
): Promise<SseFrame[]> {
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method,
    params: { ...params, _meta: { ...envelopeEnvelope(), ...params._meta } },
  };
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  const response = await post(endpointUrl, message, { ...envelopeHeaders(method), ...name });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} answered HTTP ${response.status}: ${text}`);
  return parseFrames(text);
}

function envelopeEnvelope() {
  return { [PROTOCOL_VERSION_META_KEY]: ENVELOPE_VERSION, [CLIENT_CAPABILITIES_META_KEY]: {} };
}
