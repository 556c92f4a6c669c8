// The app's logger (createApp's `logger`): a pino instance of the app's, which Kiln logs through with its levels
// mapped onto pino's (the HTTP host's Fastify too); pino options for Kiln's own logger, a transport included; and
// MCP_LOG_FORMAT, which makes lines human-readable through pino-pretty.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, LOGGER, type Logger } from 'mcp-kiln';
import { http } from 'mcp-kiln/http';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { NotesModule } from '../../examples/notes/notes.module.js';
import { assertBuilt, NOTES_SERVER } from '../integration/helpers/built-servers.js';

interface Line {
  readonly level: number;
  readonly msg: string;
  readonly name?: string;
  readonly service?: string;
  readonly [field: string]: unknown;
}

function capturingPino(level = 'debug') {
  const lines: Line[] = [];
  const logger = pino(
    { level, base: { service: 'billing' } },
    { write: (line: string) => lines.push(JSON.parse(line) as Line) },
  );
  return { logger, lines };
}

describe("the app's pino instance", () => {
  it("carries Kiln's lines, named kiln, with the app's bindings and pino's level numbers", async () => {
    const { logger, lines } = capturingPino();
    const app = await createApp(NotesModule, { serve: false, logger, env: { MCP_LOG_LEVEL: 'error' } });
    try {
      const compiled = lines.find((line) => line.msg.startsWith('Kiln app'));
      expect(compiled).toMatchObject({ name: 'kiln', service: 'billing', level: 30 });
      const kilnLogger = app.get<Logger>(LOGGER);
      kilnLogger.notice('a notice');
      kilnLogger.warning('a warning');
      kilnLogger.critical('a critical');
      expect(lines.slice(-3).map((line) => [line.level, line.msg])).toEqual([
        [30, 'a notice'],
        [40, 'a warning'],
        [60, 'a critical'],
      ]);
      // The app's level governs, read on the MCP scale.
      logger.level = 'warn';
      expect(kilnLogger.level).toBe('warning');
      kilnLogger.info('dropped');
      expect(lines.at(-1)?.msg).toBe('a critical');
    } finally {
      await app.close();
    }
  });

  it("is what the HTTP host's Fastify logs through", async () => {
    const { logger, lines } = capturingPino();
    const app = await createApp(NotesModule, { serve: false, logger, env: { MCP_HTTP_PORT: '0' } });
    try {
      const serving = await app.serve(http());
      expect(lines.some((line) => line.name === 'kiln' && line.msg.startsWith('Server listening at'))).toBe(true);
      expect(serving.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    } finally {
      await app.close();
    }
  });
});

describe("pino options for Kiln's own logger", () => {
  it('runs a transport (pino/file, in its worker thread) and keeps the MCP level names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kiln-log-'));
    const file = join(dir, 'kiln.log');
    const app = await createApp(NotesModule, {
      serve: false,
      logger: { transport: { target: 'pino/file', options: { destination: file } }, level: 'warn' },
    });
    try {
      app.get<Logger>(LOGGER).warning({ order: 7 }, 'through the transport');
      app.get<Logger>(LOGGER).info('below the level');
    } finally {
      await app.close();
    }
    await expect
      .poll(async () => (await readFile(file, 'utf8').catch(() => '')).includes('through the transport'))
      .toBe(true);
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'through the transport', order: 7 })]);
    await rm(dir, { recursive: true, force: true });
  });
});

describe('MCP_LOG_FORMAT', () => {
  async function stderrOf(format: string): Promise<string> {
    assertBuilt(NOTES_SERVER);
    const child = spawn(process.execPath, [NOTES_SERVER], {
      env: { ...process.env, MCP_TRANSPORT_TYPE: 'stdio', MCP_LOG_FORMAT: format, MCP_LOG_LEVEL: 'info' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await expect.poll(() => stderr).toContain('compiled');
    child.stdin.end();
    await once(child, 'exit');
    return stderr;
  }

  it('writes human-readable lines through pino-pretty with pretty', async () => {
    const stderr = await stderrOf('pretty');
    expect(stderr).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO \(kiln\/\d+\): Kiln app kiln-notes compiled/m);
    expect(stderr).not.toContain('"level"');
  });

  it('writes JSON lines with json, and with auto when stderr is not a terminal', async () => {
    for (const format of ['json', 'auto']) {
      const first = (await stderrOf(format)).split('\n')[0] ?? '';
      expect(JSON.parse(first)).toMatchObject({ level: 'info', name: 'kiln' });
    }
  });
});
