// Smoke test of `npm run example:cluster`: the compiled example starts Redis, two notes instances and a round-robin
// front, prints the front's URL, serves tools/list through it to the SDK client, and stops everything on SIGINT.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { assertBuilt, REPO_ROOT } from '../integration/helpers/built-servers.js';
import { trackChild } from '../support/tracked-children.js';

const EXAMPLE = join(REPO_ROOT, 'dist/examples/cluster/main.js');

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm run example:cluster', () => {
  it('serves tools/list through the front and stops Redis and both instances on SIGINT', async () => {
    assertBuilt(EXAMPLE);
    const child = spawn(process.execPath, [EXAMPLE], { stdio: ['ignore', 'pipe', 'pipe'] });
    trackChild(child);
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const exited = once(child, 'exit');
    const front = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No front URL printed:\n${printed}`)), 20_000);
      child.stdout.on('data', () => {
        const url = /Front \(round robin\): (\S+)/.exec(printed)?.[1];
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      });
    });
    const redisPort = Number(/Redis: redis:\/\/127\.0\.0\.1:(\d+)/.exec(printed)?.[1]);
    const dataDir = /\(data in (\S+)\)/.exec(printed)?.[1] as string;
    expect(await portAnswers(redisPort)).toBe(true);

    const client = new Client({ name: 'cluster-smoke', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(front)));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('notes_delete_note');
    await client.close();

    child.kill('SIGINT');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(await portAnswers(redisPort)).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
  }, 40_000);
});
