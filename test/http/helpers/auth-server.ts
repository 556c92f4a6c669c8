// A protected Kiln app served over real HTTP on 127.0.0.1 (MCP_AUTH_MODE=oauth against a local test issuer, unless
// the env says otherwise), and the ways the auth tests call it: raw fetch with a bearer token, and the official SDK
// client on either era with the token on every exchange it makes.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { KilnApp } from 'mcp-kiln';
import { authFromEnv } from 'mcp-kiln/auth';
import { createTestingModule, type TestIssuer } from 'mcp-kiln/testing';
import { type HttpHostOptions, type HttpServing, http } from '../../../modules/http/index.js';
import { AuthFixtureModule } from './auth-fixture.module.js';
import { type Era, MCP_ACCEPT, MODERN_VERSION, modernHeaders, modernRequest } from './http-server.js';

/** The resource URI (token audience) of the protected test server. */
export const RESOURCE = 'https://mcp.kiln.test/mcp';
export const METADATA_URL = 'https://mcp.kiln.test/.well-known/oauth-protected-resource/mcp';

export interface AuthServer {
  readonly app: KilnApp;
  readonly serving: HttpServing;
  readonly endpoint: string;
  close(): Promise<void>;
}

/** `env` adds to or overrides the oauth settings; `hostOptions` go to the HTTP host (a session registry, a bus). */
export async function startAuthServer(
  issuer: TestIssuer | undefined,
  env: Readonly<Record<string, string>> = {},
  hostOptions: HttpHostOptions = {},
): Promise<AuthServer> {
  const fullEnv = { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', ...issuer?.oauthEnv(RESOURCE), ...env };
  const testing = await createTestingModule({ imports: [AuthFixtureModule] }).compile({
    name: 'kiln-auth-fixture',
    env: fullEnv,
  });
  const auth = authFromEnv(fullEnv);
  const serving = await testing.app.serve(http({ ...hostOptions, ...(auth ? { auth } : {}) }));
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

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** One 2026-07-28 request with a bearer token; the raw response. */
export function postModernWith(
  endpoint: string,
  token: string | undefined,
  method: string,
  params: Record<string, unknown> = {},
  headers: Readonly<Record<string, string>> = {},
): Promise<Response> {
  // Mcp-Name repeats what the request addresses: a tool's or prompt's name, a resource's URI.
  const target = params.name ?? params.uri;
  const name: Record<string, string> = typeof target === 'string' ? { 'mcp-name': target } : {};
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: MCP_ACCEPT,
      ...modernHeaders(method),
      ...name,
      ...(token === undefined ? {} : bearer(token)),
      ...headers,
    },
    body: JSON.stringify(modernRequest(method, params)),
  });
}

/** Calls a tool on 2026-07-28 with `token`; the raw response. */
export const callWith = (endpoint: string, token: string | undefined, name: string, args: object = {}) =>
  postModernWith(endpoint, token, 'tools/call', { name, arguments: args });

/** An SDK client on `era` whose every request (POST, the 2025 GET stream, DELETE) carries `token`. */
export async function connectWithToken(endpoint: string, era: Era, token: string): Promise<Client> {
  const withToken: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const client = new Client(
    { name: `kiln-auth-${era}`, version: '1.0.0' },
    {
      capabilities: { elicitation: {} },
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_VERSION } } } : {}),
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { fetch: withToken }));
  return client;
}
