// The notes server as a process, in both eras: stdout carries JSON-RPC and nothing else, the process exits with
// code 0 when the client closes stdin or sends SIGTERM, and filesystem storage outlives a restart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, type ExpectStatic, it, type TestContext } from 'vitest';
import { assertBuilt, NOTES_SERVER, PIPELINE_FIXTURE } from './helpers/built-servers.js';
import { type ConnectedServer, connectServer } from './helpers/connected-server.js';
import { ERAS, type EraCase, LOG_LEVEL_META } from './helpers/eras.js';
import { openingMessages, type RawStdioServer, requestMeta, spawnRawServer } from './helpers/raw-stdio-server.js';
import { structured } from './helpers/tool-results.js';

const CALL_ID = 2;
const READY_ID = 3;

/**
 * Spawns the server, opens the era's exchange and makes one tool call that logs through ctx.log and has its
 * stringified tags repaired (a debug line). Shutdown is only tested after the server has answered: a signal that
 * lands while Node is still loading modules takes the default action, before any handler exists.
 */
async function startWithToolCall(eraCase: EraCase, { expect, onTestFinished }: TestContext): Promise<RawStdioServer> {
  const server = spawnRawServer(NOTES_SERVER, { MCP_LOG_LEVEL: 'debug' });
  onTestFinished(() => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  });
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
      _meta: { ...requestMeta(eraCase), [LOG_LEVEL_META]: 'debug' },
    },
  });
  expect(await server.response(CALL_ID)).toMatchObject({
    result: { structuredContent: { title: 'Lifecycle', tags: ['process'] } },
  });
  return server;
}

function expectJsonRpcOnly(lines: readonly string[], expect: ExpectStatic): void {
  expect(lines.length).toBeGreaterThanOrEqual(2);
  for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
}

describe.each(ERAS)('notes server process ($era era)', (eraCase) => {
  beforeAll(() => assertBuilt(NOTES_SERVER));

  it.concurrent('writes only JSON-RPC messages to stdout and its log lines to stderr', async (context) => {
    const { expect } = context;
    const server = await startWithToolCall(eraCase, context);
    server.child.stdin.end();
    await server.exited;

    const lines = server.stdoutLines();
    expectJsonRpcOnly(lines, expect);
    // The mirrored ctx.log line is a notification on stdout; the process log, debug lines included, stays on stderr.
    expect(lines.filter((line) => line.includes('"notifications/message"'))).toHaveLength(1);
    expect(server.stderr()).toContain('"msg":"Input edge rewrote arguments"');
    expect(server.stderr()).toContain('"msg":"Creating note"');
    expect(lines.join('\n')).not.toContain('Input edge rewrote arguments');
  });

  it.concurrent('exits with code 0 when the client closes stdin', async (context) => {
    const server = await startWithToolCall(eraCase, context);
    server.child.stdin.end();
    context.expect(await server.exited).toEqual({ code: 0, signal: null });
    context.expect(server.stderr()).toContain('Shutting down (stdin closed)');
  });

  const stoppers: [string, (server: RawStdioServer) => void][] = [
    ['stdin closes', (server) => void server.child.stdin.end()],
    ['SIGTERM arrives', (server) => void server.child.kill('SIGTERM')],
  ];
  it.concurrent.for(stoppers)(
    'answers a request still running when %s, then exits with code 0',
    async ([, stopServer], context) => {
      const { expect, onTestFinished } = context;
      const server = spawnRawServer(PIPELINE_FIXTURE);
      onTestFinished(() => {
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      });
      const opening = openingMessages(eraCase);
      for (const message of opening) server.send(message);
      if (opening.length > 0) await server.response(1);
      // An answered request proves the signal handlers are installed before the signal is sent.
      server.send({ jsonrpc: '2.0', id: READY_ID, method: 'tools/list', params: { _meta: requestMeta(eraCase) } });
      await server.response(READY_ID);
      server.send({
        jsonrpc: '2.0',
        id: CALL_ID,
        method: 'tools/call',
        params: { name: 'fixture_run_steps', arguments: { steps: 3, pauseMs: 150 }, _meta: requestMeta(eraCase) },
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      stopServer(server);

      expect(await server.response(CALL_ID)).toMatchObject({ result: { structuredContent: { completed: 3 } } });
      expect(await server.exited).toEqual({ code: 0, signal: null });
    },
  );

  it.concurrent('exits with code 0 on SIGTERM', async (context) => {
    const server = await startWithToolCall(eraCase, context);
    server.child.kill('SIGTERM');
    context.expect(await server.exited).toEqual({ code: 0, signal: null });
    context.expect(server.stderr()).toContain('Shutting down (SIGTERM)');
  });

  it.concurrent('keeps notes across a restart with filesystem storage', async ({ expect, onTestFinished }) => {
    const directory = await mkdtemp(join(tmpdir(), 'kiln-notes-'));
    const servers: ConnectedServer[] = [];
    onTestFinished(async () => {
      await Promise.all(servers.map((server) => server.close()));
      await rm(directory, { recursive: true, force: true });
    });
    const env = { STORAGE_PROVIDER_TYPE: 'filesystem', STORAGE_FILESYSTEM_PATH: directory };

    const first = await connectServer(NOTES_SERVER, eraCase, env);
    servers.push(first);
    const created = structured(
      await first.client.callTool({ name: 'notes_create_note', arguments: { title: 'Kept', body: 'On disk' } }),
    );
    await first.close();

    const second = await connectServer(NOTES_SERVER, eraCase, env);
    servers.push(second);
    const fetched = await second.client.callTool({ name: 'notes_get_note', arguments: { id: created.id } });
    expect(structured(fetched)).toEqual(created);
  });
});
