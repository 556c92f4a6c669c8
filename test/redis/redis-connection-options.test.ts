// Connection options are checked when the connection is built, so a bad configuration fails at boot.
import { describe, expect, it } from 'vitest';
import { resolveRedisOptions } from '../../modules/redis/redis-connection-options.js';
import { JsonRpcErrorCode } from '../../src/errors/json-rpc-error-code.js';
import { McpError } from '../../src/errors/mcp-error.js';

function configurationProblem(build: () => unknown): McpError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(JsonRpcErrorCode.ConfigurationError);
    expect((error as McpError).data?.reason).toBe('redis_options_invalid');
    return error as McpError;
  }
  throw new Error('expected a ConfigurationError');
}

describe('resolveRedisOptions', () => {
  it('defaults the key prefix and the command timeout', () => {
    expect(resolveRedisOptions({ url: 'redis://cache:6379' })).toEqual({
      target: { kind: 'node', url: 'redis://cache:6379' },
      keyPrefix: 'kiln',
      commandTimeoutMs: 2000,
    });
  });

  it('parses cluster seeds, IPv6 literals included', () => {
    const resolved = resolveRedisOptions({
      clusterNodes: ['10.0.0.1:7000', ' redis-b:7001', '[::1]:7002'],
      keyPrefix: '',
    });
    expect(resolved.target).toEqual({
      kind: 'cluster',
      seeds: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'redis-b', port: 7001 },
        { host: '::1', port: 7002 },
      ],
    });
    expect(resolved.keyPrefix).toBe('');
  });

  it('rejects a key prefix containing "{", which would take over the Cluster hash tag', () => {
    expect(configurationProblem(() => resolveRedisOptions({ url: 'redis://r', keyPrefix: 'app{1}' })).message).toMatch(
      /keyPrefix/,
    );
  });

  it.each([
    [{ url: 'http://r:6379' }],
    [{ url: 'redis://' }],
    [{ clusterNodes: [] }],
    [{ clusterNodes: ['r'] }],
    [{ clusterNodes: ['r:0'] }],
    [{ clusterNodes: ['r:70000'] }],
    [{ url: 'redis://r', clusterNodes: ['r:1'] }],
    [{ keyPrefix: 'app' }],
    [{ url: 'redis://r', commandTimeoutMs: 0 }],
  ])('rejects %j', (options) => {
    configurationProblem(() => resolveRedisOptions(options as never));
  });

  it('never echoes a URL, which may carry a password', () => {
    const problem = configurationProblem(() => resolveRedisOptions({ url: 'http://user:s3cret@r:6379' }));
    expect(problem.message).not.toContain('s3cret');
  });
});
