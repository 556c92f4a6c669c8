// Maps what Fastify rejects before a route runs (bad JSON, oversized body, wrong media type) onto JSON-RPC errors,
// so an HTTP client always gets a JSON-RPC body that says what was wrong, and the server keeps running.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpConfig } from '../../src/config/kiln-config.js';

interface Mapped {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

export function mapHttpError(error: FastifyError, config: HttpConfig): Mapped {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        status: 400,
        code: -32700,
        message: `Parse error: the request body is not valid JSON (${error.message}).`,
      };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        code: -32600,
        message: `Request body exceeds ${config.maxBodyBytes} bytes (MCP_HTTP_MAX_BODY_BYTES); send a smaller message.`,
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        code: -32600,
        message: 'Unsupported Content-Type: send the JSON-RPC message as application/json.',
      };
  }
  if (error instanceof SyntaxError) return { status: 400, code: -32700, message: `Parse error: ${error.message}` };
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  return {
    status,
    code: status === 500 ? -32603 : -32600,
    message: status === 500 ? 'Internal error while handling the HTTP request; it was logged.' : error.message,
  };
}

export function errorHandler(config: HttpConfig) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = mapHttpError(error, config);
    if (mapped.status >= 500) request.log.error({ err: error }, 'HTTP request failed');
    else request.log.debug({ code: error.code }, mapped.message);
    void reply
      .code(mapped.status)
      .type('application/json')
      .send({ jsonrpc: '2.0', error: { code: mapped.code, message: mapped.message }, id: null });
  };
}
