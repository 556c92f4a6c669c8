// A protected Kiln app served over real HTTP on 127.0.0.1 (MCP_AUTH_MODE=oauth against a local test issuer, unless
// the env says otherwise), and the ways the auth tests call it: raw fetch with a bearer token, and the official SDK
// client on either era with the token on every exchange it makes.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { authFromEnv } from 'mcp-kiln/auth';
import type { TestIssuer } from 'mcp-kiln/testing';
import type { HttpHostOptions } from '../../../modules/http/index.js';
import { AuthFixtureModule } from './auth-fixture.module.js';
import {
  ENVELOPE_VERSION,
  type Era,
  envelopeHeaders,
  envelopeRequest,
  MCP_ACCEPT,
  type RunningServer,
  startHttpServer,
} from './http-server.js';

/** The resource URI (token audience) of the protected test server. */
export const RESOURCE = 'https://mcp.kiln.test/mcp';
export const METADATA_URL = 'https://mcp.kiln.test/.well-known/oauth-protected-resource/mcp';

export type AuthServer = RunningServer;

/**
 * The auth fixture served with MCP_AUTH_MODE=oauth against `issuer` (none: `env` picks the mode); `env` adds to or
 * overrides those settings, `hostOptions` go to the HTTP host (a session registry, a bus).
 */
export async function startAuthServer(
  issuer: TestIssuer | undefined,
  env: Readonly<Record<string, string>> = {},
  hostOptions: HttpHostOptions = {},
): Promise<AuthServer> {
  const fullEnv = { ...issuer?.oauthEnv(RESOURCE), ...env };
  const auth = authFromEnv({ MCP_TRANSPORT_TYPE: 'http', ...fullEnv });
  return startHttpServer(fullEnv, { ...hostOptions, ...(auth ? { auth } : {}) }, AuthFixtureModule);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** One 2026-07-28 request with a bearer token; the raw response. */
export function postEnvelopeWith(
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
      ...envelopeHeaders(method),
      ...name,
      ...(token === undefined ? {} : bearer(token)),
      ...headers,
    },
    body: JSON.stringify(envelopeRequest(method, params)),
  });
}

/** Calls a tool on 2026-07-28 with `token`; the raw response. */
export const callWith = (endpoint: string, token: string | undefined, name: string, args: object = {}) =>
  postEnvelopeWith(endpoint, token, 'tools/call', { name, arguments: args });

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
      ...(era === 'envelope' ? { versionNegotiation: { mode: { pin: ENVELOPE_VERSION } } } : {}),
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { fetch: withToken }));
  return client;
}
