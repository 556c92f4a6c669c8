// The pages beside the MCP endpoint: GET /healthz for probes (status, identity, live 2025 sessions) and GET / for
// people (an HTML page naming the server and the endpoint to connect to).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openRawSession,
  type RunningServer,
  SERVER_NAME,
  SERVER_VERSION,
  sessionHeaders,
  startHttpServer,
} from './helpers/http-server.js';

let server: RunningServer;
let origin: string;

beforeAll(async () => {
  server = await startHttpServer({ MCP_SESSION_MODE: 'stateful' });
  origin = new URL(server.serving.url).origin;
});
afterAll(() => server.close());

async function health() {
  const response = await fetch(`${origin}/healthz`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/json');
  return (await response.json()) as Record<string, unknown>;
}

describe('GET /healthz', () => {
  it('reports ok with the server identity and counts live 2025 sessions', async () => {
    expect(await health()).toMatchObject({
      status: 'ok',
      server: { name: SERVER_NAME, version: SERVER_VERSION },
      sessions: 0,
    });

    const first = await openRawSession(server.endpoint);
    await openRawSession(server.endpoint);
    expect(await health()).toMatchObject({ status: 'ok', sessions: 2 });

    const ended = await fetch(server.endpoint, { method: 'DELETE', headers: sessionHeaders(first) });
    expect(ended.ok).toBe(true);
    await ended.text();
    expect(await health()).toMatchObject({ status: 'ok', sessions: 1 });
  });
});

describe('GET /', () => {
  it('serves an HTML page naming the server and the MCP endpoint URL', async () => {
    const response = await fetch(server.serving.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(SERVER_NAME);
    expect(html).toContain(server.endpoint);
    expect(server.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    // The page lists what the server offers, so a person can see it is this server and not another.
    expect(html).toContain('probe_whoami');
    expect(html).toContain('notes_create_note');
  });
});
