// The playground's MCP client: one 2026-07-28 request per call (the per-request `_meta`, the MCP-Protocol-Version,
// Mcp-Method, Mcp-Name and Mcp-Param-* headers), answered as JSON or as an event stream whose notifications are
// handed on while the call runs.
import type { JsonRpcRequest, ServerNotification } from './mcp-messages.js';
import { DATA } from './page-data.js';
import { isObject, type JsonObject } from './values.js';

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const META_CLIENT = 'io.modelcontextprotocol/clientInfo';
const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
// Form elicitation is what the page can answer; it cannot sample a model or list roots.
const CAPABILITIES = { elicitation: { form: {} } };
let nextRequestId = 1;

/** Where a tool wants an Mcp-Param-* header: the argument's path and the header's name. */
export interface HeaderParam {
  readonly path: readonly string[];
  readonly header: string;
}

export interface RequestOptions {
  readonly token: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  readonly logLevel: string | undefined;
  readonly progressToken: string | undefined;
  readonly onNotification: (message: ServerNotification) => void;
}

/** One request and what came back: the HTTP status and the JSON-RPC response, or the body's text when none parsed. */
export interface WireExchange {
  readonly request: JsonRpcRequest;
  readonly status: number;
  /** The JSON-RPC response (or whatever JSON the body held); undefined when there was none. */
  response: unknown;
  text: string;
}

/** The id the next request gets (the page names its progress token after it). */
export const upcomingRequestId = (): number => nextRequestId;

/** A header value as SEP-2243 spells it: visible ASCII as is, anything else Base64-wrapped. */
export function headerValue(value: string | number | boolean): string {
  const text = String(value);
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(text) && !text.startsWith('=?base64?')) return text;
  if (text === '') return text;
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** Where a tool asks for Mcp-Param-* headers: properties marked x-mcp-header, reached through properties only. */
export function headerParamsOf(schema: unknown): HeaderParam[] {
  const found: HeaderParam[] = [];
  const walk = (node: unknown, path: readonly string[]): void => {
    const properties = isObject(node) ? node.properties : undefined;
    if (!isObject(properties)) return;
    for (const [key, child] of Object.entries(properties)) {
      if (!isObject(child)) continue;
      const header = child['x-mcp-header'];
      if (typeof header === 'string') found.push({ path: [...path, key], header });
      walk(child, [...path, key]);
    }
  };
  walk(schema, []);
  return found;
}

/** The Mcp-Param-* headers for a call's arguments: the marked values that are strings, booleans or finite numbers. */
export function headerParamHeaders(params: readonly HeaderParam[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    let value: unknown = args;
    for (const key of param.path) value = isObject(value) ? value[key] : undefined;
    if (
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    ) {
      headers[`mcp-param-${param.header.toLowerCase()}`] = headerValue(value);
    }
  }
  return headers;
}

/**
 * Sends one request and resolves with the exchange: what was sent, the HTTP status, and the JSON-RPC response (or
 * the body text when there was none). Notifications on an event stream reach onNotification as they arrive.
 */
export async function mcpRequest(method: string, params: JsonObject, options: RequestOptions): Promise<WireExchange> {
  const meta: JsonObject = {
    [META_VERSION]: DATA.protocolVersion,
    [META_CAPABILITIES]: CAPABILITIES,
    [META_CLIENT]: DATA.client,
  };
  if (options.logLevel) meta[META_LOG_LEVEL] = options.logLevel;
  if (options.progressToken !== undefined) meta.progressToken = options.progressToken;
  const request: JsonRpcRequest = { jsonrpc: '2.0', id: nextRequestId++, method, params: { ...params, _meta: meta } };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': DATA.protocolVersion,
    'mcp-method': method,
  };
  const target = method === 'resources/read' ? params.uri : params.name;
  if (typeof target === 'string') headers['mcp-name'] = headerValue(target);
  Object.assign(headers, options.headers);
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(DATA.endpoint, {
    method: 'POST',
    headers,
    body: JSON.stringify(request),
    signal: options.signal,
    credentials: 'omit',
    cache: 'no-store',
  });
  const exchange: WireExchange = { request, status: response.status, response: undefined, text: '' };
  const type = response.headers.get('content-type') || '';
  if (type.includes('text/event-stream') && response.body) {
    await readEventStream(response.body, (message) => {
      if (isObject(message) && message.id !== undefined && ('result' in message || 'error' in message)) {
        exchange.response = message;
      } else {
        // Anything else on the stream is the server's notification.
        options.onNotification(message as ServerNotification);
      }
    });
  } else {
    exchange.text = await response.text();
    try {
      exchange.response = JSON.parse(exchange.text);
    } catch {
      exchange.response = undefined;
    }
  }
  return exchange;
}

/** Reads Server-Sent Events off a response body, one JSON-RPC message per event, as they arrive. */
async function readEventStream(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  onMessage: (message: unknown) => void,
): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    buffer = (buffer + chunk.value).replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      buffer = buffer.slice(end + 2);
      if (data) onMessage(JSON.parse(data));
      end = buffer.indexOf('\n\n');
    }
  }
}
