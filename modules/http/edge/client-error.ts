// Answers what Node's HTTP parser rejects before Fastify sees a request (oversized headers, conflicting body
// framing, malformed syntax, a request not received in time) with a JSON-RPC error body and the status Node would
// use, then closes the connection: after a framing error nothing more on it can be trusted.
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { edgeError, type JsonRpcErrorObject, jsonRpcErrorResponse } from '../../../src/errors/index.js';
import type { HttpConfig } from '../../../src/index.js';

interface ClientError extends Error {
  readonly code?: string;
}

/**
 * The handler for Fastify's `clientErrorHandler`. `responding` names the response in flight on a socket, if any: once
 * its head is out, another response would corrupt the stream, so the socket is only closed.
 */
export function clientErrorHandler(
  config: HttpConfig,
  responding: (socket: Socket) => ServerResponse | undefined,
): (error: ClientError, socket: Socket) => void {
  return (error, socket) => {
    // A reset peer is gone; there is no one to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable && !responding(socket)?.headersSent) {
      const { status, body } = answerFor(error, config);
      const text = JSON.stringify(jsonRpcErrorResponse(null, body));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
      );
    }
    socket.destroy();
  };
}

function answerFor(error: ClientError, config: HttpConfig): { status: number; body: JsonRpcErrorObject } {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        body: edgeError(
          'request_timeout',
          `Request timeout: the headers must arrive within ${config.timeouts.headersMs} ms ` +
            `(MCP_HTTP_HEADERS_TIMEOUT_MS) and the whole request within ${config.timeouts.requestMs} ms ` +
            '(MCP_HTTP_REQUEST_TIMEOUT_MS).',
        ),
      };
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        body: edgeError('invalid_http_request', 'Request header fields too large: send fewer or shorter headers.'),
      };
  }
  // llhttp's messages name the rule broken ("Content-Length can't be present with Transfer-Encoding") and carry no
  // request bytes.
  const detail = error.message.replace(/^Parse Error:\s*/, '');
  return {
    status: 400,
    body: edgeError('invalid_http_request', `Bad request: the HTTP request could not be parsed (${detail}).`),
  };
}
