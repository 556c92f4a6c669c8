// Real redis-server processes for tests, each on a free loopback port in its own temp dir with an fsync-always AOF,
// so a node can be killed and restarted with its data. Only processes started here are ever signalled (by their own
// ChildProcess), so a system Redis on the machine is never touched. The Cluster is in redis-cluster.ts.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisCommand, waitUntil } from './redis-probe.js';
import { trackChild } from './tracked-children.js';

const HOST = '127.0.0.1';
/** Redis Cluster nodes also listen on port + 10000 for the cluster bus. */
const CLUSTER_BUS_OFFSET = 10_000;
const START_TIMEOUT_MS = 10_000;

export interface RedisNode {
  readonly port: number;
  /** `127.0.0.1:port`, the form cluster seed lists use. */
  readonly address: string;
  readonly url: string;
  readonly running: boolean;
  /** SIGKILL, as a crash would; the data dir stays, so `restart` loads the AOF. */
  kill(): Promise<void>;
  /** Starts the node again on the same port and dir; resolves once it answers PING. */
  restart(): Promise<void>;
  /** SIGSTOP: the process stops answering, its sockets stay open, and what it was sent waits for `thaw`. */
  freeze(): void;
  /** SIGCONT after `freeze`: it goes on with everything it was sent meanwhile. */
  thaw(): void;
}

export interface RedisSingleServer extends RedisNode {
  /** Kills the process and removes its data dir. */
  stop(): Promise<void>;
}

export type AppendFsync = 'always' | 'everysec';

export function assertInstalled(binary: 'redis-server' | 'redis-cli'): void {
  const probe = spawnSync(binary, ['--version'], { stdio: 'ignore' });
  if (probe.error) {
    throw new Error(
      `${binary} is not installed (${probe.error.message}). The Redis tests start their own servers: ` +
        'install Redis with `apt-get install redis-server` (no service needs to run).',
    );
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, HOST, () => server.close(() => resolve(true)));
  });
}

/** A port free on loopback right now (another process may still take it before it is used). */
export async function ephemeralPort(): Promise<number> {
  const server = createServer();
  server.listen(0, HOST);
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function freePort(withClusterBus: boolean): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await ephemeralPort();
    if (!withClusterBus) return port;
    const bus = port + CLUSTER_BUS_OFFSET;
    if (bus <= 65_535 && (await portIsFree(bus))) return port;
  }
  throw new Error('No free loopback port pair (P, P+10000) found for a Redis Cluster node');
}

export class RedisServerProcess implements RedisNode {
  private child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly extraArgs: readonly string[],
    private readonly appendfsync: AppendFsync,
  ) {}

  get address(): string {
    return `${HOST}:${this.port}`;
  }

  get url(): string {
    return `redis://${this.address}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const args = [
      '--port',
      String(this.port),
      '--bind',
      HOST,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      this.appendfsync,
      '--dir',
      this.dir,
      '--logfile',
      join(this.dir, 'redis.log'),
      ...this.extraArgs,
    ];
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    trackChild(child);
    this.child = child;
    let exited = false;
    child.once('exit', () => {
      exited = true;
    });
    try {
      await waitUntil(`redis-server on port ${this.port} to answer PING`, START_TIMEOUT_MS, async () => {
        if (exited) throw new Error('exited');
        return (await redisCommand(this.port, ['PING'])) === 'PONG';
      });
    } catch (error) {
      await this.kill();
      const log = await readFile(join(this.dir, 'redis.log'), 'utf8').catch(() => '(no log)');
      throw new Error(
        `redis-server on port ${this.port} did not start: ${log.trim().split('\n').slice(-3).join(' | ')}`,
        {
          cause: error,
        },
      );
    }
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  restart(): Promise<void> {
    if (this.running) throw new Error(`redis-server on port ${this.port} is still running`);
    return this.start();
  }
}

/** Starts a node on a fresh free port, trying another port if a racing process took the one picked. */
export async function startNode(
  root: string,
  extraArgs: readonly string[],
  cluster: boolean,
  appendfsync: AppendFsync = 'always',
): Promise<RedisServerProcess> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort(cluster);
    const node = new RedisServerProcess(port, join(root, String(port)), extraArgs, appendfsync);
    try {
      await node.start();
      return node;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

export interface RedisServerOptions {
  /** `always` (the default) loses nothing on a crash; `everysec` keeps fsync off the latency of each write. */
  appendfsync?: AppendFsync;
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisSingleServer> {
  assertInstalled('redis-server');
  const root = await mkdtemp(join(tmpdir(), 'kiln-redis-'));
  const node = await startNode(root, [], false, options.appendfsync);
  return Object.assign(node, {
    async stop() {
      await node.kill();
      await rm(root, { recursive: true, force: true });
    },
  });
}
