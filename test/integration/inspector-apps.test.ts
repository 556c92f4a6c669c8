// The official MCP Inspector CLI (@modelcontextprotocol/inspector) against the built MCP Apps example, over stdio and
// HTTP on both eras: with --advertise-apps its --app-info probe reports each tool's view (URI, visibility, CSP,
// permissions, MIME type); without it the server negotiates the text-only listing.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KilnProcess, startKilnProcess } from '../support/kiln-process.js';
import { APPS_SERVER, assertBuilt } from './helpers/built-servers.js';

const run = promisify(execFile);
const INSPECTOR = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
// The Inspector keeps its catalogue and OAuth store under HOME; give it one of its own.
const home = mkdtempSync(join(tmpdir(), 'kiln-inspector-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const BOARD_VIEW = {
  hasApp: true,
  resourceUri: 'ui://tally/board',
  csp: { connectDomains: [], resourceDomains: [] },
  permissions: { clipboardWrite: {} },
  prefersBorder: true,
  resourceMimeType: 'text/html;profile=mcp-app',
};

/** Runs `inspector --cli` with `args` and the server target last; resolves with its NDJSON stdout, parsed. */
async function inspector(args: readonly string[], target: readonly string[]): Promise<unknown[]> {
  const { stdout } = await run(process.execPath, [INSPECTOR, '--cli', '-q', ...args, ...target], {
    env: { ...process.env, HOME: home, MCP_TRANSPORT_TYPE: 'stdio', MCP_LOG_LEVEL: 'error' },
    timeout: 60_000,
  });
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

describe('the MCP Inspector CLI reports the app metadata', () => {
  const stdio = [process.execPath, APPS_SERVER];
  let server: KilnProcess;

  beforeAll(async () => {
    assertBuilt(APPS_SERVER);
    server = await startKilnProcess(APPS_SERVER, { MCP_LOG_LEVEL: 'error' });
  });
  afterAll(() => server?.stop());

  it.each(['legacy', 'modern'])('for every tool over stdio (%s era)', async (era) => {
    const lines = await inspector(
      ['--protocol-era', era, '--advertise-apps', '--app-info', '--method', 'tools/list'],
      stdio,
    );
    expect(lines).toEqual([
      { ...BOARD_VIEW, toolName: 'tally_show_board' },
      { ...BOARD_VIEW, toolName: 'tally_increment', visibility: ['app'] },
    ]);
  });

  it.each(['legacy', 'modern'])('for one tool over HTTP (%s era), without calling it', async (era) => {
    const lines = await inspector(
      [
        '--protocol-era',
        era,
        '--advertise-apps',
        '--app-info',
        '--method',
        'tools/call',
        '--tool-name',
        'tally_show_board',
      ],
      [server.endpoint],
    );
    expect(lines).toEqual([{ ...BOARD_VIEW, toolName: 'tally_show_board' }]);
  });

  it('sees no view, and no app-only tool, when it does not advertise the extension', async () => {
    const lines = await inspector(
      ['--protocol-era', 'modern', '--app-info', '--method', 'tools/list'],
      [server.endpoint],
    );
    expect(lines).toEqual([{ hasApp: false, toolName: 'tally_show_board' }]);
  });
});
