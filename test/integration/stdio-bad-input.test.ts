// Bad input on stdio: a line that is not JSON gets a JSON-RPC parse error (-32700, id null) on stdout, the server
// stays up, and the next request is answered as usual.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, NOTES_SERVER } from './helpers/built-servers.js';
import { type RawStdioServer, spawnRawServer } from './helpers/raw-stdio-server.js';

let server: RawStdioServer | undefined;

beforeAll(() => assertBuilt(NOTES_SERVER));
afterEach(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
});

describe('notes server on stdio, given lines that are not JSON', () => {
  it('answers each with a parse error and keeps serving', async () => {
    server = spawnRawServer(NOTES_SERVER, { MCP_LOG_LEVEL: 'error' });
    server.child.stdin.write('{this is not json\n');
    server.child.stdin.write('[1, 2,\n');
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bad-input', version: '1' } },
    });

    expect(await server.response(1)).toMatchObject({ result: { serverInfo: { name: 'kiln-notes' } } });
    const errors = server
      .stdoutLines()
      .map((line) => JSON.parse(line) as { id?: unknown; error?: { code: number; message: string } })
      .filter((message) => message.error !== undefined);
    expect(errors).toHaveLength(2);
    for (const error of errors) {
      expect(error).toMatchObject({
        id: null,
        error: { code: -32700, message: expect.stringContaining('not valid JSON') },
      });
    }
  });
});
