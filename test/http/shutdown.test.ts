// Graceful HTTP shutdown, in both eras: a call in flight when close() begins still answers (with its progress),
// requests arriving after that are refused, live 2025 sessions end, and close() resolves.
import type { Progress } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  connectClient,
  type Era,
  type HttpClient,
  handshakeToolsList,
  initializeRequest,
  openRawSession,
  post,
  type RunningServer,
  startHttpServer,
} from './helpers/http-server.js';

const SLOW_MS = 300;

let server: RunningServer | undefined;
let connected: HttpClient | undefined;

afterEach(async () => {
  await connected?.client.close().catch(() => undefined);
  await server?.close();
  connected = undefined;
  server = undefined;
});

/** How a request sent while the server is closing ends: a status, or 'refused' when no connection was accepted. */
async function outcomeOf(request: Promise<Response>): Promise<number | 'refused'> {
  try {
    const response = await request;
    await response.body?.cancel();
    return response.status;
  } catch {
    return 'refused';
  }
}

describe.each<Era>(['handshake', 'envelope'])('graceful shutdown (%s era)', (era) => {
  it('lets the call in flight finish, refuses new requests, ends sessions, and resolves', async () => {
    server = await startHttpServer({ MCP_SESSION_MODE: 'stateful' });
    const { app, serving, endpoint } = server;
    connected = await connectClient(endpoint, era);
    // A second, idle 2025 session: shutdown must end it too, not only the one with a request running.
    const idleSession = era === 'handshake' ? await openRawSession(endpoint) : undefined;
    expect(serving.liveSessions()).toBe(era === 'handshake' ? 2 : 0);

    const progress: Progress[] = [];
    const call = connected.client.callTool(
      { name: 'probe_slow', arguments: { ms: SLOW_MS } },
      { onprogress: (update) => progress.push(update) },
    );
    await vi.waitFor(() => expect(app.inFlight).toBe(1), { timeout: 2_000, interval: 5 });

    const startedAt = Date.now();
    const closed = serving.close();
    const lateOutcomes = await Promise.all([
      outcomeOf(post(endpoint, initializeRequest())),
      outcomeOf(post(endpoint, handshakeToolsList(), { 'mcp-protocol-version': '2025-11-25' })),
    ]);

    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ sleptMs: SLOW_MS });
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'halfway' },
      { progress: 2, total: 2, message: 'done' },
    ]);
    for (const outcome of lateOutcomes) expect([503, 'refused']).toContain(outcome);

    await closed;
    // Once the call has answered, nothing is left to wait for: no open stream or kept-alive socket holds close() up.
    expect(Date.now() - startedAt).toBeLessThan(SLOW_MS + 1_500);
    expect(serving.liveSessions()).toBe(0);
    expect(app.inFlight).toBe(0);
    expect(await outcomeOf(post(endpoint, handshakeToolsList()))).toBe('refused');
    if (idleSession) {
      expect(await outcomeOf(post(endpoint, handshakeToolsList(), { 'mcp-session-id': idleSession }))).toBe('refused');
    }
  });
});
