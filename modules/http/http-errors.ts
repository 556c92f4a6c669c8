// Maps what Fastify rejects before a route runs (bad JSON, oversized body, wrong media type) onto JSON-RPC errors,
// so an HTTP client always gets a JSON-RPC body that says what was wrong, and the server keeps running.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { edgeError, type JsonRpcErrorObject, jsonRpcErrorResponse } from '../../src/errors/index.js';
import type { HttpConfig } from '../../src/index.js';

interface Mapped {
  readonly status: number;
  readonly error: JsonRpcErrorObject;
}

export function mapHttpError(error: FastifyError, config: HttpConfig): Mapped {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        status: 400,
        error: edgeError('parse_error', `Parse error: the request body is not valid JSON (${error.message}).`),
      };
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
  if (error instanceof SyntaxError) {
    return { status: 400, error: edgeError('parse_error', `Parse error: ${error.message}`) };
  }
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  return status === 500
    ? { status, error: edgeError('internal_error', 'Internal error while handling the HTTP request; it was logged.') }
    : { status, error: edgeError('invalid_message', error.message) };
}

export function errorHandler(config: HttpConfig) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = mapHttpError(error, config);
    if (mapped.status >= 500) request.log.error({ err: error }, 'HTTP request failed');
    else request.log.debug({ code: error.code }, mapped.error.message);
    void reply.code(mapped.status).type('application/json').send(jsonRpcErrorResponse(null, mapped.error));
  };
}
