// loadConfig: defaults when nothing is set, and a boot-stopping message naming each bad variable and what it accepts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config/kiln-config.js';
import { KilnBootError } from '../../src/errors/index.js';
import { fixtureModule } from '../di/boot-app.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

function configProblems(env: Record<string, string | undefined>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(KilnBootError);
    return (error as KilnBootError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('defaults to stdio, info logging and in-memory storage', () => {
    expect(loadConfig({})).toEqual({ transportType: 'stdio', logLevel: 'info', storage: { type: 'in-memory' } });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ MCP_TRANSPORT_TYPE: '', MCP_LOG_LEVEL: '', STORAGE_PROVIDER_TYPE: '' })).toEqual(
      loadConfig({}),
    );
  });

  it('reads every setting', () => {
    const config = loadConfig({
      MCP_TRANSPORT_TYPE: 'stdio',
      MCP_LOG_LEVEL: 'warning',
      STORAGE_PROVIDER_TYPE: 'filesystem',
      STORAGE_FILESYSTEM_PATH: '/var/lib/kiln',
    });
    expect(config).toEqual({
      transportType: 'stdio',
      logLevel: 'warning',
      storage: { type: 'filesystem', path: '/var/lib/kiln' },
    });
  });

  it('ignores a filesystem path when storage is in memory', () => {
    expect(loadConfig({ STORAGE_FILESYSTEM_PATH: '/tmp/unused' }).storage).toEqual({ type: 'in-memory' });
  });

  it('reads process.env when given nothing', () => {
    vi.stubEnv('MCP_LOG_LEVEL', 'critical');
    expect(loadConfig().logLevel).toBe('critical');
  });

  it('rejects an unknown transport, naming the variable, the value and the accepted values', () => {
    expect(configProblems({ MCP_TRANSPORT_TYPE: 'carrier-pigeon' })).toEqual([
      'Invalid configuration: MCP_TRANSPORT_TYPE="carrier-pigeon" is not valid: expected one of stdio.',
    ]);
  });

  it('rejects an unknown log level, listing the eight MCP levels', () => {
    expect(configProblems({ MCP_LOG_LEVEL: 'verbose' })).toEqual([
      'Invalid configuration: MCP_LOG_LEVEL="verbose" is not valid: expected one of ' +
        'debug, info, notice, warning, error, critical, alert, emergency.',
    ]);
  });

  it('rejects a level spelled the pino way rather than the MCP way', () => {
    expect(configProblems({ MCP_LOG_LEVEL: 'warn' })[0]).toContain('MCP_LOG_LEVEL="warn" is not valid');
  });

  it('rejects an unknown storage provider', () => {
    expect(configProblems({ STORAGE_PROVIDER_TYPE: 'redis' })).toEqual([
      'Invalid configuration: STORAGE_PROVIDER_TYPE="redis" is not valid: expected one of in-memory, filesystem.',
    ]);
  });

  it('requires STORAGE_FILESYSTEM_PATH for filesystem storage', () => {
    expect(configProblems({ STORAGE_PROVIDER_TYPE: 'filesystem' })).toEqual([
      'Invalid configuration: STORAGE_FILESYSTEM_PATH is required when STORAGE_PROVIDER_TYPE=filesystem: set it to a directory path.',
    ]);
  });

  it('reports every bad variable together', () => {
    const problems = configProblems({
      MCP_TRANSPORT_TYPE: 'http',
      MCP_LOG_LEVEL: 'loud',
      STORAGE_PROVIDER_TYPE: 'filesystem',
    });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('MCP_TRANSPORT_TYPE="http"');
    expect(problems[1]).toContain('MCP_LOG_LEVEL="loud"');
    expect(problems[2]).toContain('STORAGE_FILESYSTEM_PATH is required');
  });

  it('puts every problem in the error message', () => {
    const error = (() => {
      try {
        loadConfig({ MCP_TRANSPORT_TYPE: 'http', STORAGE_PROVIDER_TYPE: 's3' });
      } catch (thrown) {
        return thrown as Error;
      }
    })();
    expect(error?.message).toBe(
      'Kiln could not start:\n' +
        '  - Invalid configuration: MCP_TRANSPORT_TYPE="http" is not valid: expected one of stdio.\n' +
        '  - Invalid configuration: STORAGE_PROVIDER_TYPE="s3" is not valid: expected one of in-memory, filesystem.',
    );
  });

  it('stops createApp before anything is compiled or served', async () => {
    const boot = createApp(fixtureModule({}), { serve: false, env: { STORAGE_PROVIDER_TYPE: 'tape' } });
    await expect(boot).rejects.toBeInstanceOf(KilnBootError);
    await expect(boot).rejects.toThrow(
      'STORAGE_PROVIDER_TYPE="tape" is not valid: expected one of in-memory, filesystem.',
    );
  });
});
