// Kiln on several instances, on one machine: a redis-server of its own (free loopback port, temp dir), two instances of
// the notes example on it (STORAGE_PROVIDER_TYPE=redis, stateful 2025 sessions) and a round-robin HTTP front with no
// stickiness. Ctrl+C (or SIGTERM) stops all of it. Run with `npm run example:cluster`.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forward } from './forward-request.js';

const HOST = '127.0.0.1';
const INSTANCES = 2;
const NOTES_SERVER = fileURLToPath(new URL('../notes/main.js', import.meta.url));
const children = new Set<ChildProcess>();

async function freePort(): Promise<number> {
  const server = createNetServer().listen(0, HOST);
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Resolves once Redis accepts connections on the port (it answers PING with +PONG). */
async function redisAnswers(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const answered = await new Promise<boolean>((resolve) => {
      const socket = connect(port, HOST, () => socket.write('PING\r\n'));
      socket.once('data', (data) => resolve(data.toString().startsWith('+PONG')));
      socket.once('error', () => resolve(false));
      socket.once('close', () => resolve(false));
    }).catch(() => false);
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer in time`);
}

async function startRedis(dir: string): Promise<string> {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', HOST, '--dir', dir, '--save', '', '--appendonly', 'yes'];
  const redis = track(spawn('redis-server', [...args, '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' }));
  const failed = once(redis, 'error').then(([error]) => {
    throw new Error(`Could not start redis-server (is it installed?): ${(error as Error).message}`);
  });
  await Promise.race([redisAnswers(port, Date.now() + 10_000), failed]);
  return `redis://${HOST}:${port}`;
}

/** One instance of the notes example; resolves with its origin once it prints its MCP endpoint. */
async function startInstance(redisUrl: string): Promise<string> {
  const env = {
    MCP_LOG_LEVEL: 'warning',
    ...process.env,
    MCP_TRANSPORT_TYPE: 'http',
    MCP_HTTP_HOST: HOST,
    MCP_HTTP_PORT: String(await freePort()),
    MCP_SESSION_MODE: 'stateful',
    STORAGE_PROVIDER_TYPE: 'redis',
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: 'kiln-cluster-example',
  };
  const child = track(spawn(process.execPath, [NOTES_SERVER], { env, stdio: ['ignore', 'pipe', 'inherit'] }));
  let printed = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const endpoint = /MCP endpoint: (\S+)/.exec(printed)?.[1];
      if (endpoint) resolve(new URL(endpoint).origin);
    });
    child.once('exit', (code) => reject(new Error(`A notes instance exited with ${code} before listening`)));
  });
}

/** A round-robin front: each request goes to the next instance in turn; one that refuses is skipped. */
async function startFront(origins: readonly string[]): Promise<{ url: string; close: () => Promise<void> }> {
  let next = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const start = next++;
    for (let attempt = 0; attempt < origins.length; attempt++) {
      if (await forward(origins[(start + attempt) % origins.length] as string, req, res, body)) return;
    }
    res.writeHead(502).end();
  });
  server.listen(await freePort(), HOST);
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://${HOST}:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function stopChildren(): Promise<void> {
  await Promise.all(
    [...children].map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}

const dir = await mkdtemp(join(tmpdir(), 'kiln-cluster-'));
let front: { url: string; close: () => Promise<void> } | undefined;
let stopping = false;

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await front?.close();
    await stopChildren(); // the instances first (SIGTERM drains them), Redis last
    await rm(dir, { recursive: true, force: true });
  }
  process.exit(code);
}

process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));

try {
  const redisUrl = await startRedis(dir);
  const redis = [...children][0];
  const origins = await Promise.all(Array.from({ length: INSTANCES }, () => startInstance(redisUrl)));
  front = await startFront(origins);
  // Instances stop before Redis at shutdown; Redis going away earlier is worth saying.
  redis?.once('exit', () => {
    if (!stopping) process.stderr.write('redis-server exited; the instances answer 503 until it is back.\n');
  });
  process.stdout.write(
    [
      `Redis: ${redisUrl} (data in ${dir})`,
      ...origins.map((origin, index) => `Instance ${index + 1}: ${origin}/mcp`),
      `Front (round robin): ${front.url}/mcp`,
      '',
      `Point an MCP client at ${front.url}/mcp (Streamable HTTP). With the official Inspector:`,
      '  npx @modelcontextprotocol/inspector   (then Transport: Streamable HTTP, URL: the front above)',
      'Consecutive requests of one session land on different instances. Ctrl+C stops everything.',
      '',
    ].join('\n'),
  );
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  await stop(1);
}
