// A 3-master Redis Cluster of test servers (see redis-servers.ts), created with `redis-cli --cluster create`, with
// the lookups fault tests need: which master serves a slot, and when every node agrees the Cluster is healthy.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisCommand, waitUntil } from './redis-probe.js';
import { assertInstalled, type RedisNode, type RedisServerProcess, startNode } from './redis-servers.js';

const CLUSTER_TIMEOUT_MS = 30_000;

export interface RedisClusterServers {
  readonly nodes: readonly RedisNode[];
  readonly addresses: string[];
  /** The master serving `slot`, as the running nodes report it. */
  ownerOfSlot(slot: number): Promise<RedisNode>;
  /** Resolves once every node reports `cluster_state:ok` and none is flagged as failing. */
  waitHealthy(): Promise<void>;
  stop(): Promise<void>;
}

interface ClusterNodeLine {
  port: number;
  flags: string[];
  slots: Array<[number, number]>;
}

/** Parses `CLUSTER NODES`: `<id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot>...`. */
function parseClusterNodes(text: string): ClusterNodeLine[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const fields = line.trim().split(' ');
      const port = Number(fields[1]?.split('@')[0]?.split(':')[1]);
      const slots = fields.slice(8).flatMap((range): Array<[number, number]> => {
        if (range.startsWith('[')) return [];
        const [from, to = from] = range.split('-');
        return [[Number(from), Number(to)]];
      });
      return { port, flags: (fields[2] ?? '').split(','), slots };
    });
}

class RedisClusterProcesses implements RedisClusterServers {
  constructor(
    readonly nodes: readonly RedisServerProcess[],
    private readonly root: string,
  ) {}

  get addresses(): string[] {
    return this.nodes.map((node) => node.address);
  }

  async ownerOfSlot(slot: number): Promise<RedisNode> {
    const reporter = this.nodes.find((node) => node.running);
    if (!reporter) throw new Error('No Cluster node is running');
    const lines = parseClusterNodes(await redisCommand(reporter.port, ['CLUSTER', 'NODES']));
    const owner = lines.find((line) => line.slots.some(([from, to]) => slot >= from && slot <= to));
    const node = this.nodes.find((candidate) => candidate.port === owner?.port);
    if (!node) throw new Error(`No Cluster node owns slot ${slot}`);
    return node;
  }

  waitHealthy(): Promise<void> {
    return waitUntil('every Cluster node to report cluster_state:ok', CLUSTER_TIMEOUT_MS, async () => {
      for (const node of this.nodes) {
        if (!(await redisCommand(node.port, ['CLUSTER', 'INFO'])).includes('cluster_state:ok')) return false;
        const lines = parseClusterNodes(await redisCommand(node.port, ['CLUSTER', 'NODES']));
        if (lines.length !== this.nodes.length) return false;
        if (lines.some((line) => line.flags.some((flag) => flag === 'fail' || flag === 'fail?'))) return false;
      }
      return true;
    });
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.kill()));
    await rm(this.root, { recursive: true, force: true });
  }
}

async function createCluster(addresses: readonly string[]): Promise<void> {
  const cli = spawn('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  cli.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  cli.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const [code] = (await once(cli, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`redis-cli --cluster create failed (exit ${code}): ${output.trim().slice(-500)}`);
}

/**
 * Three masters, no replicas. `cluster-require-full-coverage no` keeps the other masters serving while one is
 * down, which is what a fault test needs to show a partial outage.
 */
export async function startRedisCluster(): Promise<RedisClusterServers> {
  assertInstalled('redis-server');
  assertInstalled('redis-cli');
  const root = await mkdtemp(join(tmpdir(), 'kiln-redis-cluster-'));
  const nodes: RedisServerProcess[] = [];
  try {
    for (let index = 0; index < 3; index++) {
      // A relative config file lands in the node's own --dir, next to its AOF, so a restart rejoins as itself.
      const args = [
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-node-timeout',
        '2000',
        '--cluster-require-full-coverage',
        'no',
      ];
      nodes.push(await startNode(root, args, true));
    }
    const cluster = new RedisClusterProcesses(nodes, root);
    await createCluster(cluster.addresses);
    await cluster.waitHealthy();
    return cluster;
  } catch (error) {
    await Promise.all(nodes.map((node) => node.kill()));
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}
