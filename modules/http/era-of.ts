// Which era a parsed POST belongs to, decided the way the SDK's entry decides it (classifyInboundRequest over the
// standard headers and the body) without building a web Request for it: the headers the classifier reads are three.
import type { IncomingHttpHeaders } from 'node:http';
import { classifyInboundRequest } from '@modelcontextprotocol/server';

type Inbound = Parameters<typeof classifyInboundRequest>[0];

/** The standard MCP headers as the SDK reads them from a web Request: repeated values joined by ", ". */
export function standardHeaders(headers: IncomingHttpHeaders) {
  return {
    protocolVersionHeader: single(headers['mcp-protocol-version']),
    mcpMethodHeader: single(headers['mcp-method']),
    mcpNameHeader: single(headers['mcp-name']),
  } satisfies Partial<Inbound>;
}

/**
 * What the SDK's isLegacyRequest answers for a POST whose body Fastify parsed: a POST without a JSON body, or one the
 * classifier routes to the legacy leg.
 */
export function isLegacyPost(headers: IncomingHttpHeaders, body: unknown): boolean {
  if (body === undefined) return true;
  return classifyInboundRequest({ httpMethod: 'POST', ...standardHeaders(headers), body }).kind === 'legacy';
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
