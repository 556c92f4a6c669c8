// HTTP over a bare TCP socket, for what neither fetch nor node:http will send: a malformed or repeated Host,
// conflicting body framing, oversized headers, and clients that dribble their bytes or never finish a request.
import { connect, type Socket } from 'node:net';

export interface SocketAnswer {
  /** 0 when the server closed the connection without answering. */
  readonly status: number;
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** From the first byte written to the server closing the connection. */
  readonly closedAfterMs: number;
}

export interface RawConnection {
  readonly socket: Socket;
  /** Resolves when the server closes the connection (or `withinMs` passes, which rejects). */
  closed(withinMs?: number): Promise<SocketAnswer>;
  /** Writes `text` one byte every `everyMs` until it is all sent or the connection closes. */
  dribble(text: string, everyMs: number): void;
}

/** Opens a connection to 127.0.0.1:`port` and writes `text` at once (nothing when it is empty). */
export async function openRaw(port: number, text = ''): Promise<RawConnection> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const started = Date.now();
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  // The server may reset a connection it refuses while bytes are still in flight; the answer is what arrived.
  socket.on('error', () => undefined);
  const ended = new Promise<SocketAnswer>((resolve) => {
    socket.once('close', () => resolve({ ...parseAnswer(received), closedAfterMs: Date.now() - started }));
  });
  if (text) socket.write(text);
  return {
    socket,
    closed: (withinMs = 5_000) =>
      Promise.race([
        ended,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`The server kept the connection open past ${withinMs} ms.`)), withinMs),
        ),
      ]).finally(() => socket.destroy()),
    dribble: (rest, everyMs) => {
      let next = 0;
      const timer = setInterval(() => {
        if (next >= rest.length || socket.destroyed || !socket.writable) return clearInterval(timer);
        socket.write(rest[next++] as string);
      }, everyMs);
      socket.once('close', () => clearInterval(timer));
    },
  };
}

/** Sends one raw request and waits for the server's answer and the connection's end. */
export async function rawRequest(port: number, text: string, withinMs?: number): Promise<SocketAnswer> {
  const connection = await openRaw(port, text);
  return connection.closed(withinMs);
}

/** A request with `Connection: close`, so the server ends the connection after answering. */
export function requestText(
  method: string,
  path: string,
  headers: Readonly<Record<string, string>>,
  body = '',
): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const length = body === '' ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}${length}Connection: close\r\n\r\n${body}`;
}

function parseAnswer(raw: string): Omit<SocketAnswer, 'closedAfterMs'> {
  const split = raw.indexOf('\r\n\r\n');
  if (!raw.startsWith('HTTP/1.') || split < 0) return { status: 0, headers: {}, body: '' };
  const [statusLine = '', ...headerLines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.slice(split + 4);
  const body = headers['transfer-encoding'] === 'chunked' ? unchunk(rest) : rest;
  return { status: Number(statusLine.split(' ')[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8') };
}

function unchunk(text: string): string {
  let body = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    const size = Number.parseInt(text.slice(at, lineEnd), 16);
    if (!(size > 0)) return body;
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}
