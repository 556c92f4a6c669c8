// A real HAProxy (the OS package) running deploy/haproxy/haproxy.cfg in the foreground, with the addresses the
// config reads from its environment. Stopped with SIGUSR1 (soft stop) and then SIGKILL if it lingers.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { ephemeralPort } from './redis-servers.js';
import { repoFile } from './repo-root.js';
import { trackChild } from './tracked-children.js';

const CONFIG = repoFile('deploy/haproxy/haproxy.cfg');

export interface Haproxy {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly output: () => string;
  stop(): Promise<void>;
}

export function assertHaproxyInstalled(): void {
  const probe = spawnSync('haproxy', ['-v'], { stdio: 'ignore' });
  if (probe.error) {
    throw new Error(`haproxy is not installed (${probe.error.message}): install it with \`apt-get install haproxy\`.`);
  }
}

/** HAProxy in front of `backends` (host:port each, three of them, as the config names). */
export async function startHaproxy(backends: readonly [string, string, string]): Promise<Haproxy> {
  assertHaproxyInstalled();
  const port = await ephemeralPort();
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', CONFIG], {
    env: {
      ...process.env,
      KILN_LISTEN: `127.0.0.1:${port}`,
      KILN_1: backends[0],
      KILN_2: backends[1],
      KILN_3: backends[2],
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`haproxy did not listen on ${port} in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
