// Reads Server-Sent Events off a fetch response frame by frame, keeping each frame's `id`, so tests can assert on
// what the wire carried (event ids, order, priming frames) rather than on what an SDK client chose to dispatch.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

export interface SseFrame {
  readonly id: string | undefined;
  /** The `data` field; empty for a priming frame. */
  readonly data: string;
}

/** The JSON-RPC message a frame carries; fails on a frame without one. */
export function frameMessage(frame: SseFrame): JSONRPCMessage {
  if (frame.data === '') throw new Error(`Frame ${frame.id ?? '(no id)'} carries no message.`);
  return JSON.parse(frame.data) as JSONRPCMessage;
}

/** A frame's JSON-RPC method, or `'(response)'` for a response; handy for asserting a sequence. */
export function frameMethod(frame: SseFrame): string {
  const message = frameMessage(frame);
  return 'method' in message ? message.method : '(response)';
}

/** Every frame of a finished body (a POST response stream, which ends after the response). */
export function parseFrames(text: string): SseFrame[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n\n')
    .map(parseFrame)
    .filter((frame): frame is SseFrame => frame !== undefined);
}

/** An open event stream (a GET stream or a listen stream) read incrementally; `close()` drops the connection. */
export class SseStream {
  private buffer = '';
  private readonly reader: ReadableStreamDefaultReader<string>;

  constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {
    if (!response.body) throw new Error(`HTTP ${response.status} carried no event stream.`);
    this.reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next frame that carries an id or data (keep-alive comments are skipped); fails after `timeoutMs`. */
  async next(timeoutMs = 3_000): Promise<SseFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const frame = parseFrame(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 2);
        if (frame) return frame;
        continue;
      }
      const chunk = await readWithin(this.reader, deadline - Date.now());
      if (chunk === undefined) throw new Error('The event stream ended.');
      this.buffer += chunk.replace(/\r\n?/g, '\n');
    }
  }

  /** The next `count` frames, in order. */
  async take(count: number, timeoutMs = 3_000): Promise<SseFrame[]> {
    const frames: SseFrame[] = [];
    while (frames.length < count) frames.push(await this.next(timeoutMs));
    return frames;
  }

  /** Drops the connection, as a client losing its network would. */
  close(): void {
    this.abort.abort();
  }
}

function parseFrame(block: string): SseFrame | undefined {
  let id: string | undefined;
  const data: string[] = [];
  let fields = 0;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    fields++;
    if (name === 'id') id = value;
    else if (name === 'data') data.push(value);
  }
  if (fields === 0 || (id === undefined && data.every((d) => d === ''))) return undefined;
  return { id, data: data.join('\n') };
}

async function readWithin(reader: ReadableStreamDefaultReader<string>, ms: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No event within the time allowed (${ms} ms).`)), Math.max(0, ms));
  });
  try {
    const { value, done } = await Promise.race([reader.read(), timeout]);
    return done ? undefined : value;
  } finally {
    clearTimeout(timer);
  }
}
