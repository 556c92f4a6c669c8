// A minimal RESP client for the Redis test servers: one command per socket, replies of the simple kinds only.
// Readiness checks use it instead of ioredis so waiting for a server never depends on the code under test.
import { connect } from 'node:net';

const PROBE_TIMEOUT_MS = 1_000;

function encodeCommand(args: readonly string[]): string {
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
}

/** The reply once `buffer` holds a whole simple string, error, integer or bulk string; undefined while partial. */
function parseReply(buffer: Buffer): string | undefined {
  const lineEnd = buffer.indexOf('\r\n');
  if (lineEnd < 0) return undefined;
  const head = buffer.subarray(1, lineEnd).toString();
  switch (String.fromCharCode(buffer[0] ?? 0)) {
    case '+':
    case ':':
      return head;
    case '-':
      throw new Error(`Redis replied with an error: ${head}`);
    case '$': {
      const length = Number(head);
      if (length < 0) return '';
      const start = lineEnd + 2;
      return buffer.length >= start + length ? buffer.subarray(start, start + length).toString() : undefined;
    }
    default:
      throw new Error(`Unexpected Redis reply type in ${JSON.stringify(buffer.subarray(0, 20).toString())}`);
  }
}

/** Sends one command to 127.0.0.1:`port` and resolves with its reply text; rejects when the server does not answer. */
export function redisCommand(port: number, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    const finish = (error: Error | undefined, reply?: string) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(reply ?? '');
    };
    const timer = setTimeout(() => finish(new Error(`Redis on port ${port} did not answer in time`)), PROBE_TIMEOUT_MS);
    socket.on('connect', () => socket.write(encodeCommand(args)));
    socket.on('error', (error) => finish(error));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      try {
        const reply = parseReply(received);
        if (reply !== undefined) finish(undefined, reply);
      } catch (error) {
        finish(error as Error);
      }
    });
  });
}

/** Polls until `check` resolves true, failing with `what` after `timeoutMs`. */
export async function waitUntil(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
