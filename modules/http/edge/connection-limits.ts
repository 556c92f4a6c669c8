// The Node and Fastify settings that bound what one connection may hold (MCP_HTTP_*_TIMEOUT_MS): headers and body
// must arrive in time, idle keep-alive sockets and sockets nobody reads are closed. None of them limits a response
// its client is reading, so event streams and long calls live on.
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions } from 'fastify';
import type { HttpConfig } from '../../../src/index.js';
import { clientErrorHandler } from './client-error.js';

type LimitOptions = Pick<
  FastifyHttpOptions<Server>,
  'connectionTimeout' | 'keepAliveTimeout' | 'requestTimeout' | 'http' | 'clientErrorHandler'
>;

export function connectionLimits(
  config: HttpConfig,
  responding: (socket: Socket) => ServerResponse | undefined,
): LimitOptions {
  const { timeouts } = config;
  return {
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // Node checks the two timeouts above on this interval (30 s by default), which would let a slow client
      // overstay its limit by that much.
      connectionsCheckingInterval: Math.min(1000, Math.max(25, Math.floor(timeouts.headersMs / 4))),
      // Node answers a missing Host with a bare 400; the host's own check answers it with a JSON-RPC error.
      requireHostHeader: false,
    },
    clientErrorHandler: clientErrorHandler(config, responding),
  };
}

/**
 * Decides what a socket silent both ways for MCP_HTTP_IDLE_TIMEOUT_MS means. Between requests, or with a response
 * its client has stopped reading (bytes waiting in the socket), it is dead weight and is closed. A request still being
 * answered with nothing waiting is not: a 2026-07-28 call answers in one JSON piece and may think quietly for longer.
 */
export function closeIdleSockets(server: Server, responding: (socket: Socket) => ServerResponse | undefined): void {
  // With a listener here Node no longer destroys a timed-out socket itself.
  server.on('timeout', (socket: Socket) => {
    const response = responding(socket);
    if (response && !response.writableEnded && socket.writableLength === 0) return;
    socket.destroy();
  });
}
