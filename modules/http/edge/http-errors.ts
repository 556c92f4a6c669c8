// Maps what is refused before a route runs (Kiln's own EdgeRejections from hooks and body parsers, Fastify's
// oversized body and malformed media type) onto JSON-RPC errors, so an HTTP client always gets a JSON-RPC body that
// says what was wrong, and the server keeps running. A 5xx is logged with its cause.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { edgeError, type JsonRpcErrorObject, jsonRpcErrorResponse } from '../../../src/errors/index.js';
import type { HttpConfig } from '../../../src/index.js';
import { EdgeRejection } from './edge-rejection.js';

interface Mapped {
  readonly status: number;
  readonly error: JsonRpcErrorObject;
  readonly headers?: Readonly<Record<string, string>>;
}

export function mapHttpError(error: FastifyError | EdgeRejection, config: HttpConfig): Mapped {
  if (error instanceof EdgeRejection) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        error: edgeError(
          'message_too_large',
          `Request body exceeds ${config.maxBodyBytes} bytes (MCP_HTTP_MAX_BODY_BYTES); send a smaller message.`,
          { limit: config.maxBodyBytes },
        ),
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        error: edgeError(
          'unsupported_media_type',
          'Unsupported Content-Type: send the JSON-RPC message as application/json.',
        ),
      };
  }
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  return status === 500
    ? { status, error: edgeError('internal_error', 'Internal error while handling the HTTP request; it was logged.') }
    : { status, error: edgeError('invalid_http_request', `Bad request: ${error.message}`) };
}

export function errorHandler(config: HttpConfig) {
  return (error: FastifyError | EdgeRejection, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = mapHttpError(error, config);
    if (mapped.status >= 500) request.log.error({ err: error }, 'HTTP request failed');
    else request.log.debug({ reason: mapped.error.data?.reason }, mapped.error.message);
    void reply
      .code(mapped.status)
      .headers(mapped.headers ?? {})
      .type('application/json')
      .send(jsonRpcErrorResponse(null, mapped.error));
  };
}
