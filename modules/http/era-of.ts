// Which era a parsed POST belongs to, decided the way the SDK's entry decides it (classifyInboundRequest over the
// standard headers and the body) without building a web Request for it: the headers the classifier reads are three.
import type { IncomingHttpHeaders } from 'node:http';
import { classifyInboundRequest, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

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
 * classifier routes to the handshake-era leg.
 */
export function isHandshakePost(headers: IncomingHttpHeaders, body: unknown): boolean {
  if (body === undefined || isPlainHandshakeRequest(headers, body)) return true;
  return classifyInboundRequest({ httpMethod: 'POST', ...standardHeaders(headers), body }).kind === 'legacy';
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const HANDSHAKE_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);
const ENVELOPE_PREFIX = 'io.modelcontextprotocol/';

/**
 * A request the classifier routes to the handshake-era leg, told without it: a well-formed JSON-RPC request (not a response,
 * so none of the classifier's zod guards, which cost ~14 µs each when they fail) with no envelope claim in `_meta`,
 * under no version header or a 2025-era one. Anything else is the classifier's to decide
 * (test/http/era-of.test.ts holds the two to each other).
 */
export function isPlainHandshakeRequest(headers: IncomingHttpHeaders, body: unknown): boolean {
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && !(typeof version === 'string' && HANDSHAKE_VERSIONS.has(version))) return false;
  if (!isPlainObject(body)) return false;
  for (const key in body) if (!REQUEST_KEYS.has(key)) return false;
  const { jsonrpc, id, method, params } = body;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || !(typeof id === 'string' || Number.isSafeInteger(id))) {
    return false;
  }
  if (params === undefined) return true;
  if (!isPlainObject(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isPlainObject(meta)) return false;
  const { progressToken } = meta;
  if (progressToken !== undefined && !(typeof progressToken === 'string' || Number.isSafeInteger(progressToken))) {
    return false;
  }
  for (const key in meta) if (key.startsWith(ENVELOPE_PREFIX)) return false;
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
