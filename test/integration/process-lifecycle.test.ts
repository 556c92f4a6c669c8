// The notes server as a process, driven by hand-written lines: stdout carries JSON-RPC and nothing else, and the
// process exits with code 0 when the client closes stdin or sends SIGTERM, in both eras.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, NOTES_SERVER } from './helpers/built-servers.js';
import { ERAS, type EraCase } from './helpers/eras.js';
import { openingMessages, type RawStdioServer, requestMeta, spawnRawServer } from './helpers/raw-stdio-server.js';

const CALL_ID = 2;

/** Opens the era's exchange and makes one tool call that logs (ctx.log) and takes an input repair (debug log). */
async function startWithToolCall(eraCase: EraCase): Promise<RawStdioServer> {
  const server = spawnRawServer(NOTES_SERVER, { MCP_LOG_LEVEL: 'debug' });
  const opening = openingMessages(eraCase);
  for (const message of opening) server.send(message);
  if (opening.length > 0) await server.response(1);
  server.send({
    jsonrpc: '2.0',
    id: CALL_ID,
    method: 'tools/call',
    params: {
      name: 'notes_create_note',
      arguments: { title: 'Lifecycle', body: 'Body', tags: '["process"]' },
      _meta: { ...requestMeta(eraCase), 'io.modelcontextprotocol/logLevel': 'debug' },
    },
  });
  const response = await server.response(CALL_ID);
  expect(response).toMatchObject({ result: { structuredContent: { title: 'Lifecycle', tags: ['process'] } } });
  return server;
}

describe.each(ERAS)('notes server process ($era era)', (eraCase) => {
  const started: RawStdioServer[] = [];
  const start = async () => {
    const server = await startWithToolCall(eraCase);
    started.push(server);
    return server;
  };

  beforeAll(() => assertBuilt(NOTES_SERVER));
  afterEach(() => {
    for (const server of started.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });

  it('writes only JSON-RPC messages to stdout and its log lines to stderr', async () => {
    const server = await start();
    server.child.stdin.end();
    await server.exited;

    const lines = server.stdoutLines();
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      const message: unknown = JSON.parse(line);
      expect(message).toMatchObject({ jsonrpc: '2.0' });
    }
    // The mirrored ctx.log line is a notification on stdout; the process log stays on stderr.
    expect(lines.some((line) => line.includes('"notifications/message"'))).toBe(true);
    const stderrLines = server.stderr().trim().split('\n');
    expect(stderrLines.some((line) => line.includes('Input edge rewrote arguments'))).toBe(true);
    expect(stderrLines.some((line) => line.includes('Creating note'))).toBe(true);
    expect(lines.some((line) => line.includes('Input edge rewrote arguments'))).toBe(false);
  });

  it('exits with code 0 when the client closes stdin', async () => {
    const server = await start();
    server.child.stdin.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toContain('Shutting down (stdin closed)');
  });

  it('exits with code 0 on SIGTERM', async () => {
    const server = await start();
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toContain('Shutting down (SIGTERM)');
  });
});
