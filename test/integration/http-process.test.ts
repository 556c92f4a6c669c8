// The notes example as `npm start` runs it, over HTTP: it prints where its landing page and MCP endpoint are, both
// answer, and SIGTERM ends it with code 0.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, NOTES_SERVER } from './helpers/built-servers.js';

beforeAll(() => assertBuilt(NOTES_SERVER));

describe('notes server over HTTP, as a process', () => {
  it('prints its URLs, serves the page and the endpoint, and exits with code 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [NOTES_SERVER], {
      env: { ...process.env, MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      const urls = await new Promise<{ page: string; endpoint: string }>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const page = /Landing page: (\S+)/.exec(stdout)?.[1];
          const endpoint = /MCP endpoint: (\S+)/.exec(stdout)?.[1];
          if (page && endpoint) resolve({ page, endpoint });
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${stdout}`)));
      });
      expect(urls.page).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(urls.endpoint).toBe(`${urls.page}mcp`);

      const page = await fetch(urls.page);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('notes_create_note');

      const initialize = await fetch(urls.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
        }),
      });
      expect(initialize.status).toBe(200);
      expect(await initialize.text()).toContain('"kiln-notes"');

      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      expect(await exited).toEqual([0, null]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
