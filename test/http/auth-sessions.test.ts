// A 2025 session is bound to the principal that opened it (client, subject and tenant): a request naming its
// Mcp-Session-Id with another valid token gets 404, as if the session did not exist, on POST, GET and DELETE alike;
// the opener keeps the session, also with a re-minted token of the same principal; and the binding is part of the
// session record a shared (Redis) registry stores, so it holds on every instance.
import { startTestIssuer, type TestIssuer } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySessionRegistry } from '../../modules/http/index.js';
import { type AuthServer, bearer, RESOURCE, startAuthServer } from './helpers/auth-server.js';
import { handshakeToolsList, initializeRequest, jsonRpcError, post, sessionHeaders } from './helpers/http-server.js';

let issuer: TestIssuer;
let server: AuthServer;
const registry = new InMemorySessionRegistry();
beforeAll(async () => {
  issuer = await startTestIssuer({ audience: RESOURCE });
  server = await startAuthServer(issuer, { MCP_SESSION_MODE: 'stateful' }, { registry });
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

/** initialize + notifications/initialized with `token`; the session id. */
async function openSession(token: string): Promise<string> {
  const opened = await post(server.endpoint, initializeRequest(), bearer(token));
  expect(opened.status).toBe(200);
  await opened.text();
  const sessionId = opened.headers.get('mcp-session-id') as string;
  const initialized = await post(
    server.endpoint,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { ...bearer(token), ...sessionHeaders(sessionId) },
  );
  expect(initialized.status).toBe(202);
  return sessionId;
}

describe('a 2025 session under auth', () => {
  it('answers another principal 404 on every method, and keeps serving the one that opened it', async () => {
    const alice = await issuer.mintToken({ sub: 'alice', tenant: 'acme', clientId: 'desk-app' });
    const sessionId = await openSession(alice);
    for (const other of [
      { sub: 'mallory', tenant: 'acme', clientId: 'desk-app' },
      { sub: 'alice', tenant: 'globex', clientId: 'desk-app' },
      { sub: 'alice', tenant: 'acme', clientId: 'other-app' },
    ]) {
      const token = await issuer.mintToken(other);
      const headers = { ...bearer(token), ...sessionHeaders(sessionId) };
      const call = await post(server.endpoint, handshakeToolsList(), headers);
      expect(call.status, JSON.stringify(other)).toBe(404);
      expect((await jsonRpcError(call)).error.data?.reason).toBe('session_not_found');
      const stream = await fetch(server.endpoint, { headers: { accept: 'text/event-stream', ...headers } });
      expect(stream.status).toBe(404);
      await stream.text();
      const ended = await fetch(server.endpoint, { method: 'DELETE', headers });
      expect(ended.status).toBe(404);
      await ended.text();
    }
    const own = await post(server.endpoint, handshakeToolsList(), { ...bearer(alice), ...sessionHeaders(sessionId) });
    expect(own.status).toBe(200);
    await own.text();
    const refreshed = await issuer.mintToken({ sub: 'alice', tenant: 'acme', clientId: 'desk-app' });
    const again = await post(server.endpoint, handshakeToolsList(3), {
      ...bearer(refreshed),
      ...sessionHeaders(sessionId),
    });
    expect(again.status).toBe(200);
    await again.text();
  });

  it('keeps the binding in the session record a shared registry stores', async () => {
    const bob = await issuer.mintToken({ sub: 'bob', tenant: 'initech', clientId: 'cli' });
    const sessionId = await openSession(bob);
    expect((await registry.get(sessionId))?.principal).toBe(JSON.stringify(['cli', 'bob', 'initech']));
  });
});
