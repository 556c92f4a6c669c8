// Two real Kiln processes (the sessions fixture) sharing one throwaway Redis, behind a round-robin proxy with no
// stickiness: the multi-instance tests' common setup. `stop` tears down in reverse, whatever already died.
import { assertBuilt, SESSIONS_FIXTURE } from '../integration/helpers/built-servers.js';
import { type KilnProcess, startKilnProcess } from './kiln-process.js';
import { type RedisSingleServer, startRedisServer } from './redis-servers.js';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy.js';

export interface KilnRedisCluster {
  readonly redis: RedisSingleServer;
  readonly instances: KilnProcess[];
  readonly proxy: RoundRobinProxy;
  stop(): Promise<void>;
}

export async function startKilnRedisCluster(options: {
  readonly keyPrefix: string;
  readonly resumability: boolean;
  /** The compiled server each instance runs; the sessions fixture unless given. */
  readonly script?: string;
  /** More environment for both instances. */
  readonly env?: Readonly<Record<string, string>>;
}): Promise<KilnRedisCluster> {
  const script = options.script ?? SESSIONS_FIXTURE;
  assertBuilt(script);
  const redis = await startRedisServer();
  const env = {
    MCP_SESSION_MODE: 'stateful',
    STORAGE_PROVIDER_TYPE: 'redis',
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: options.keyPrefix,
    MCP_LOG_LEVEL: 'info',
    MCP_HTTP_RESUMABILITY: String(options.resumability),
    ...options.env,
  };
  const instances = await Promise.all([startKilnProcess(script, env), startKilnProcess(script, env)]);
  const proxy = await startRoundRobinProxy(instances.map((instance) => instance.origin));
  return {
    redis,
    instances,
    proxy,
    stop: async () => {
      await proxy.close();
      await Promise.allSettled(instances.map((instance) => instance.stop()));
      await redis.stop();
    },
  };
}
