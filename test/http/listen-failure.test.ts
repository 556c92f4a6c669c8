// A server that cannot open its port says which address, why in words, and which setting to change: a KilnBootError
// from app.serve(http()), and the same line from a process started with createApp. The app itself is unharmed: it
// serves on a free port afterwards.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { promisify } from 'node:util';
import { KilnBootError } from 'mcp-kiln/errors';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../modules/http/index.js';
import { listenFailure } from '../../modules/http/operations/listen-failure.js';
import { assertBuilt, NOTES_SERVER } from '../integration/helpers/built-servers.js';
import { HttpFixtureModule } from './helpers/http-fixture.module.js';

const run = promisify(execFile);

let occupier: Server;
let takenPort: number;

beforeAll(async () => {
  occupier = createServer().listen(0, '127.0.0.1');
  await once(occupier, 'listening');
  const address = occupier.address();
  if (address === null || typeof address === 'string') throw new Error('the occupying server has no port');
  takenPort = address.port;
});
afterAll(() => new Promise<void>((resolve) => occupier.close(() => resolve())));

async function compile(env: Record<string, string>): Promise<TestingApp> {
  return createTestingModule({ imports: [HttpFixtureModule] }).compile({
    name: 'listen-failure',
    version: '1.0.0',
    env: { MCP_TRANSPORT_TYPE: 'http', ...env },
  });
}

describe('an HTTP server that cannot open its port', () => {
  it('names the address, the reason and the setting when the port is taken, and serves once given a free one', async () => {
    const testing = await compile({ MCP_HTTP_PORT: String(takenPort) });
    try {
      const failure = await testing.app.serve(http()).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(KilnBootError);
      expect((failure as Error).message).toBe(
        `Cannot serve HTTP on 127.0.0.1:${takenPort}: another process is listening there; stop it, or set MCP_HTTP_PORT to a free port (0 picks one) (EADDRINUSE).`,
      );
      expect(((failure as Error).cause as NodeJS.ErrnoException).code).toBe('EADDRINUSE');

      const serving = await testing.app.serve(http({ config: { port: 0 } }));
      const response = await fetch(new URL('/healthz', serving.url));
      expect(response.status).toBe(200);
      await serving.close();
    } finally {
      await testing.close();
    }
  });

  it('says the address is not on this machine for a host no interface has', async () => {
    // 203.0.113.0/24 is TEST-NET-3 (RFC 5737): documentation only, never assigned to an interface.
    const testing = await compile({ MCP_HTTP_HOST: '203.0.113.7', MCP_HTTP_PORT: '0' });
    try {
      await expect(testing.app.serve(http())).rejects.toThrow(
        'Cannot serve HTTP on 203.0.113.7:0: no network interface of this machine has that address; set MCP_HTTP_HOST to one it has (EADDRNOTAVAIL).',
      );
    } finally {
      await testing.close();
    }
  });

  it('ends a createApp process with exit code 1 and that line on stderr', async () => {
    assertBuilt(NOTES_SERVER);
    const failure = await run(process.execPath, [NOTES_SERVER], {
      env: { ...process.env, MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: String(takenPort), MCP_LOG_LEVEL: 'error' },
      timeout: 20_000,
    }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(
      new RegExp(
        `^kiln-notes could not start:\n {2}- Cannot serve HTTP on 127\\.0\\.0\\.1:${takenPort}: another process is listening there`,
      ),
    );
  });
});

describe('listenFailure', () => {
  it('words a refused privileged port, and leaves a failure no setting fixes as it is', () => {
    const refused = Object.assign(new Error('listen EACCES: permission denied 0.0.0.0:80'), { code: 'EACCES' });
    const mapped = listenFailure(refused, '0.0.0.0:80');
    expect(mapped).toBeInstanceOf(KilnBootError);
    expect((mapped as Error).message).toBe(
      'Cannot serve HTTP on 0.0.0.0:80: this user may not listen on that port (ports below 1024 need privileges); set MCP_HTTP_PORT to 1024 or above (EACCES).',
    );
    expect((mapped as Error).cause).toBe(refused);
    const other = Object.assign(new Error('listen EMFILE'), { code: 'EMFILE' });
    expect(listenFailure(other, '127.0.0.1:3010')).toBe(other);
    const plain = new Error('no code');
    expect(listenFailure(plain, '127.0.0.1:3010')).toBe(plain);
  });
});
