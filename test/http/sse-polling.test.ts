// SSE polling (SEP-1699) on a 2025-11-25 session: a handler that calls ctx.closeStream() ends its POST stream after
// the priming event, whose `retry` tells the client when to come back (MCP_HTTP_RESUMABILITY_RETRY_MS); the client
// resumes with Last-Event-ID and receives the result there. Without resumability nothing is closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EverythingModule } from '../../examples/everything/everything.module.js';
import { post, type RunningServer, sessionHeaders, startHttpServer } from './helpers/http-server.js';
import { RawHandshakeSession } from './helpers/raw-mcp-http.js';
import { frameMessage, parseFrames } from './helpers/sse-frames.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startHttpServer(
    { MCP_LOG_LEVEL: 'error', MCP_SESSION_MODE: 'stateful', MCP_HTTP_RESUMABILITY_RETRY_MS: '250' },
    {},
    EverythingModule,
  );
});

afterAll(async () => {
  await server?.close();
});

const CALL = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'test_reconnection', arguments: {} } };

describe('ctx.closeStream() on a 2025 session', () => {
  it('ends the POST stream after a priming event with the retry, and the result arrives on the resumed stream', async () => {
    const session = await RawHandshakeSession.open(server.endpoint);
    const response = await post(server.endpoint, CALL, sessionHeaders(session.sessionId));
    const text = await response.text();
    expect(text).toMatch(/^retry: 250$/m);
    const frames = parseFrames(text);
    expect(frames).toHaveLength(1);
    expect(frames[0]?.data).toBe('');

    const resumed = await session.openStream(frames[0]?.id);
    try {
      const result = frameMessage(await resumed.next());
      expect(result).toMatchObject({
        id: 7,
        result: { content: [{ type: 'text', text: 'Answered after the stream was closed and resumed.' }] },
      });
    } finally {
      resumed.close();
    }
  });

  it('closes nothing where the stream cannot be resumed (MCP_HTTP_RESUMABILITY=false): the answer comes on the POST', async () => {
    const plain = await startHttpServer(
      { MCP_LOG_LEVEL: 'error', MCP_SESSION_MODE: 'stateful', MCP_HTTP_RESUMABILITY: 'false' },
      {},
      EverythingModule,
    );
    try {
      const session = await RawHandshakeSession.open(plain.endpoint);
      const response = await post(plain.endpoint, CALL, sessionHeaders(session.sessionId));
      const text = await response.text();
      expect(text).not.toMatch(/^retry:/m);
      expect(text).toContain('Answered on the open stream.');
    } finally {
      await plain.close();
    }
  });
});
