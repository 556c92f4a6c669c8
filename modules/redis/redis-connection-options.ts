// What a Redis connection is configured from, and the checks that turn a bad configuration into a boot-time
// ConfigurationError instead of a connection that fails on the first request.
import { configurationError } from '../../src/errors/index.js';

interface CommonRedisOptions {
  /** Namespace in front of every key Kiln writes (default `kiln`); must not contain `{`, which would steal the hash tag. */
  keyPrefix?: string;
  /**
   * Upper bound for one command, including time queued while disconnected, and for one whole storage call
   * (default 2000 ms).
   */
  commandTimeoutMs?: number;
}

export interface RedisNodeConnectionOptions extends CommonRedisOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` for TLS. */
  url: string;
}

export interface RedisClusterConnectionOptions extends CommonRedisOptions {
  /** Seed nodes as `host:port`; the client discovers the rest of the Cluster from them. */
  clusterNodes: readonly string[];
}

export type RedisConnectionOptions = RedisNodeConnectionOptions | RedisClusterConnectionOptions;

export interface ClusterSeed {
  host: string;
  port: number;
}

export type ResolvedRedisTarget = { kind: 'node'; url: string } | { kind: 'cluster'; seeds: ClusterSeed[] };

export interface ResolvedRedisOptions {
  target: ResolvedRedisTarget;
  keyPrefix: string;
  commandTimeoutMs: number;
}

export const DEFAULT_KEY_PREFIX = 'kiln';
export const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

const HOST_PORT = /^(?<host>\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):(?<port>\d{1,5})$/;

function invalid(problem: string): never {
  throw configurationError(`Invalid Redis connection options: ${problem}`, { reason: 'redis_options_invalid' });
}

function parseSeed(node: unknown): ClusterSeed {
  const match = typeof node === 'string' ? HOST_PORT.exec(node.trim()) : null;
  const port = Number(match?.groups?.port);
  if (!match?.groups?.host || port < 1 || port > 65_535) {
    invalid(`cluster node ${JSON.stringify(node)} is not "host:port"`);
  }
  return { host: match.groups.host.replace(/^\[(.*)\]$/, '$1'), port };
}

function resolveTarget(options: RedisConnectionOptions): ResolvedRedisTarget {
  const url = 'url' in options ? options.url : undefined;
  const clusterNodes = 'clusterNodes' in options ? options.clusterNodes : undefined;
  if (url !== undefined && clusterNodes !== undefined) invalid('give either url or clusterNodes, not both');
  if (url === undefined && clusterNodes === undefined) invalid('give url (one node) or clusterNodes (a Cluster)');
  if (clusterNodes !== undefined) {
    if (!Array.isArray(clusterNodes) || clusterNodes.length === 0) invalid('clusterNodes needs at least one host:port');
    return { kind: 'cluster', seeds: clusterNodes.map(parseSeed) };
  }
  if (typeof url !== 'string' || !/^rediss?:\/\/[^/]/.test(url)) {
    invalid('url must start with redis:// or rediss:// and name a host');
  }
  return { kind: 'node', url };
}

export function resolveRedisOptions(options: RedisConnectionOptions): ResolvedRedisOptions {
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  if (typeof keyPrefix !== 'string' || keyPrefix.includes('{')) {
    invalid('keyPrefix must be a string without "{" (a "{" would become the Cluster hash tag)');
  }
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  if (!Number.isInteger(commandTimeoutMs) || commandTimeoutMs <= 0) {
    invalid('commandTimeoutMs must be a positive integer');
  }
  return { target: resolveTarget(options), keyPrefix, commandTimeoutMs };
}
