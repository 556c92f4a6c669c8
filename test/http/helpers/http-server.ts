// A Kiln app served in-process over real HTTP on 127.0.0.1 and a free port, plus the two ways the HTTP tests talk
// to it: the official SDK client (either era) and raw fetch, for when status codes and headers are the point.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { KilnApp, ModuleRef } from 'mcp-kiln';
import { createTestingModule } from 'mcp-kiln/testing';
import { expect } from 'vitest';
import { type HttpHostOptions, type HttpServing, http } from '../../../modules/http/index.js';
import { HttpFixtureModule } from './http-fixture.module.js';

export const SERVER_NAME = 'kiln-http-fixture';
export const SERVER_VERSION = '3.1.4';
export const HANDSHAKE_VERSION = '2025-11-25';
export const ENVELOPE_VERSION = '2026-07-28';
/** What a Streamable HTTP client must accept on a POST (spec §2.1). */
export const MCP_ACCEPT = 'application/json, text/event-stream';

export interface RunningServer {
  readonly app: KilnApp;
  readonly serving: HttpServing;
  readonly endpoint: string;
  /** Closes the serving handle, then the app. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * `env` configures the app; `hostOptions` go to the HTTP host (a clock, a bus, a session registry, auth); `root` is
 * the module served (the HTTP fixture unless a test brings its own).
 */
export async function startHttpServer(
  env: Readonly<Record<string, string>> = {},
  hostOptions: HttpHostOptions = {},
  root: ModuleRef = HttpFixtureModule,
): Promise<RunningServer> {
  const testing = await createTestingModule({ imports: [root] }).compile({
    name: SERVER_NAME,
    version: SERVER_VERSION,
    env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', ...env },
  });
  const serving = await testing.app.serve(http(hostOptions));
  return {
    app: testing.app,
    serving,
    endpoint: serving.endpointUrl,
    close: async () => {
      await serving.close();
      await testing.close();
    },
  };
}

export type Era = 'handshake' | 'envelope';

export interface HttpClient {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
}

/**
 * An SDK client connected over Streamable HTTP: the 2025 initialize handshake, or pinned to 2026-07-28. `fetch`
 * lets a test watch every exchange the transport makes.
 */
export async function connectClient(
  endpoint: string,
  era: Era,
  options: { readonly fetch?: typeof fetch } = {},
): Promise<HttpClient> {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), options.fetch ? { fetch: options.fetch } : {});
  const client = new Client(
    { name: `kiln-http-${era}`, version: '1.0.0' },
    era === 'envelope' ? { versionNegotiation: { mode: { pin: ENVELOPE_VERSION } } } : undefined,
  );
  await client.connect(transport);
  return { client, transport };
}

export type JsonObject = Record<string, unknown>;

export interface JsonRpcErrorBody {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly error: { readonly code: number; readonly message: string; readonly data?: JsonObject };
}

/** POSTs one JSON-RPC message with the headers a well-behaved client sends; `headers` add to or replace them. */
export function post(endpoint: string, message: unknown, headers: Readonly<Record<string, string>> = {}) {
  return fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headers },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
}

/** The JSON-RPC message(s) in a response body, whether it came as application/json or as an SSE stream. */
export async function jsonRpcMessages(response: Response): Promise<JsonObject[]> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.includes('text/event-stream')) return [JSON.parse(text) as JsonObject];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.length > 'data:'.length)
    .map((line) => line.slice('data:'.length).trim())
    .filter((data) => data.length > 0)
    .map((data) => JSON.parse(data) as JsonObject);
}

/** The single JSON-RPC error body of a rejected request. */
export async function jsonRpcError(response: Response): Promise<JsonRpcErrorBody> {
  expect(response.headers.get('content-type')).toContain('application/json');
  const body = (await response.json()) as JsonRpcErrorBody;
  expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
  return body;
}

export const initializeRequest = (id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion: HANDSHAKE_VERSION,
    capabilities: {},
    clientInfo: { name: 'kiln-http-raw', version: '1.0.0' },
  },
});

/** A 2025 tools/list, as a client that already initialized (or a stateless one) sends it. */
export const handshakeToolsList = (id: number | string = 2) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/list',
  params: {},
});

/** Opens a 2025 session by hand: initialize, then notifications/initialized. Returns the Mcp-Session-Id. */
export async function openRawSession(endpoint: string): Promise<string> {
  const response = await post(endpoint, initializeRequest());
  expect(response.status).toBe(200);
  const sessionId = response.headers.get('mcp-session-id');
  expect(sessionId).toBeTruthy();
  await response.text();
  const initialized = await post(
    endpoint,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'mcp-session-id': sessionId as string, 'mcp-protocol-version': HANDSHAKE_VERSION },
  );
  expect(initialized.status).toBe(202);
  return sessionId as string;
}

/** Headers of a request on an open 2025 session. */
export const sessionHeaders = (sessionId: string) => ({
  'mcp-session-id': sessionId,
  'mcp-protocol-version': HANDSHAKE_VERSION,
});

/** A 2026-07-28 request: the `_meta` envelope in the body and the headers that must agree with it (spec §2.3). */
export function envelopeRequest(
  method: string,
  params: JsonObject = {},
  { id = 1, version = ENVELOPE_VERSION }: { id?: number | string; version?: string } = {},
) {
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': version,
        'io.modelcontextprotocol/clientInfo': { name: 'kiln-http-raw', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
}

export const envelopeHeaders = (method: string, version = ENVELOPE_VERSION) => ({
  'mcp-protocol-version': version,
  'mcp-method': method,
});
