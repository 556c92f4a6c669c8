// loadConfig: defaults when nothing is set, and a boot-stopping message naming each bad variable and what it accepts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/kiln-config.js';
import { KilnBootError } from '../../src/errors/boot-error.js';
import { createTestingModule } from '../../src/testing/index.js';
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
  it('defaults tasks to a 1 h ttlMs, 1 s polls, 100 per tenant and a 15 s lease, and reads each setting', () => {
    expect(loadConfig({}).tasks).toEqual({
      ttlMs: 3_600_000,
      pollIntervalMs: 1000,
      maxPerTenant: 100,
      maxPerSubject: 50,
      leaseMs: 15_000,
    });
    expect(
      loadConfig({
        MCP_TASKS_TTL_MS: '60000',
        MCP_TASKS_POLL_INTERVAL_MS: '250',
        MCP_TASKS_MAX_PER_TENANT: '3',
        MCP_TASKS_LEASE_MS: '2000',
      }).tasks,
    ).toEqual({ ttlMs: 60_000, pollIntervalMs: 250, maxPerTenant: 3, maxPerSubject: 1, leaseMs: 2000 });
    expect(configProblems({ MCP_TASKS_LEASE_MS: '10' })).toEqual([
      'Invalid configuration: MCP_TASKS_LEASE_MS="10" is not valid: expected an integer from 1000 to 600000.',
    ]);
  });

  it('defaults to stdio, info logging and in-memory storage', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ transportType: 'stdio', logLevel: 'info', storage: { type: 'in-memory' } });
  });

  it('defaults HTTP to loopback port 3010 on /mcp, auto sessions, resumability on, a 1 MiB body cap and bounded waits', () => {
    expect(loadConfig({}).http).toEqual({
      host: '127.0.0.1',
      port: 3010,
      endpointPath: '/mcp',
      sessionMode: 'auto',
      staleSessionTimeoutMs: 1_800_000,
      maxSessions: 1000,
      maxSessionsPerPrincipal: 100,
      resumability: { enabled: true, maxEvents: 1000, ttlMs: 300_000, retryMs: 1000 },
      allowedOrigins: undefined,
      maxBodyBytes: 1_048_576,
      maxJsonDepth: 64,
      maxConnections: 10_000,
      maxListenStreams: 1024,
      maxListenStreamsPerPrincipal: 102,
      maxInFlightPerPrincipal: 100,
      timeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000, idleMs: 120_000, sseKeepAliveMs: 15_000 },
      fastPath: true,
      playground: true,
      trustProxy: false,
      serverCard: { enabled: true, name: undefined, description: undefined },
    });
  });

  it('reads every HTTP setting', () => {
    const { http } = loadConfig({
      MCP_TRANSPORT_TYPE: 'http',
      MCP_HTTP_HOST: '0.0.0.0',
      MCP_HTTP_PORT: '8080',
      MCP_HTTP_ENDPOINT_PATH: '/api/mcp',
      MCP_SESSION_MODE: 'stateful',
      MCP_STATEFUL_SESSION_STALE_TIMEOUT_MS: '5000',
      MCP_HTTP_MAX_SESSIONS: '2',
      MCP_HTTP_RESUMABILITY: 'false',
      MCP_HTTP_RESUMABILITY_MAX_EVENTS: '10',
      MCP_HTTP_RESUMABILITY_TTL_MS: '2000',
      MCP_HTTP_RESUMABILITY_RETRY_MS: '250',
      MCP_ALLOWED_ORIGINS: 'https://app.example, https://admin.example',
      MCP_HTTP_MAX_BODY_BYTES: '4096',
      MCP_HTTP_MAX_JSON_DEPTH: '16',
      MCP_HTTP_MAX_CONNECTIONS: '50',
      MCP_HTTP_MAX_LISTEN_STREAMS: '3',
      MCP_HTTP_HEADERS_TIMEOUT_MS: '500',
      MCP_HTTP_REQUEST_TIMEOUT_MS: '900',
      MCP_HTTP_KEEP_ALIVE_TIMEOUT_MS: '700',
      MCP_HTTP_IDLE_TIMEOUT_MS: '800',
      MCP_HTTP_SSE_KEEP_ALIVE_MS: '100',
      MCP_HTTP_FAST_PATH: 'off',
      MCP_PLAYGROUND: 'off',
      MCP_HTTP_TRUST_PROXY: '10.0.0.0/8, 192.168.1.7',
    });
    expect(http).toEqual({
      host: '0.0.0.0',
      port: 8080,
      endpointPath: '/api/mcp',
      sessionMode: 'stateful',
      staleSessionTimeoutMs: 5000,
      maxSessions: 2,
      maxSessionsPerPrincipal: 1,
      resumability: { enabled: false, maxEvents: 10, ttlMs: 2000, retryMs: 250 },
      allowedOrigins: ['https://app.example', 'https://admin.example'],
      maxBodyBytes: 4096,
      maxJsonDepth: 16,
      maxConnections: 50,
      maxListenStreams: 3,
      maxListenStreamsPerPrincipal: 1,
      maxInFlightPerPrincipal: 100,
      timeouts: { headersMs: 500, requestMs: 900, keepAliveMs: 700, idleMs: 800, sseKeepAliveMs: 100 },
      fastPath: false,
      playground: false,
      trustProxy: ['10.0.0.0/8', '192.168.1.7'],
      serverCard: { enabled: true, name: undefined, description: undefined },
    });
  });

  it('reads the Server Card settings and refuses a name or description its schema would not take', () => {
    expect(
      loadConfig({
        MCP_SERVER_CARD: 'off',
        MCP_SERVER_CARD_NAME: 'com.example/notes',
        MCP_SERVER_CARD_DESCRIPTION: 'Notes for the team.',
      }).http.serverCard,
    ).toEqual({ enabled: false, name: 'com.example/notes', description: 'Notes for the team.' });
    expect(configProblems({ MCP_SERVER_CARD_NAME: 'notes', MCP_SERVER_CARD_DESCRIPTION: 'x'.repeat(101) })).toEqual([
      'Invalid configuration: MCP_SERVER_CARD_NAME="notes" is not valid: expected a reverse-DNS namespace, one slash and a name, such as com.example/notes.',
      'Invalid configuration: MCP_SERVER_CARD_DESCRIPTION is not valid: expected 1 to 100 characters.',
    ]);
  });

  it('defaults shutdown to no ready grace and a 10 s drain, and reads both', () => {
    expect(loadConfig({}).shutdown).toEqual({ readyGraceMs: 0, drainMs: 10_000 });
    expect(loadConfig({ MCP_SHUTDOWN_READY_GRACE_MS: '5000', MCP_SHUTDOWN_DRAIN_MS: '25000' }).shutdown).toEqual({
      readyGraceMs: 5000,
      drainMs: 25_000,
    });
  });

  it('gives each principal a share of every per-instance cap, never more than the cap', () => {
    const config = loadConfig({
      MCP_HTTP_MAX_SESSIONS: '50',
      MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL: '7',
      MCP_HTTP_MAX_LISTEN_STREAMS: '40',
      MCP_HTTP_MAX_LISTEN_STREAMS_PER_PRINCIPAL: '40',
      MCP_MAX_IN_FLIGHT_PER_PRINCIPAL: '8',
      MCP_TASKS_MAX_PER_TENANT: '30',
      MCP_TASKS_MAX_PER_SUBJECT: '3',
    });
    expect(config.http).toMatchObject({
      maxSessionsPerPrincipal: 7,
      maxListenStreamsPerPrincipal: 40,
      maxInFlightPerPrincipal: 8,
    });
    expect(config.tasks.maxPerSubject).toBe(3);
    // Unset, a share is a tenth of the cap (half for tasks), and at least 1.
    expect(loadConfig({ MCP_HTTP_MAX_SESSIONS: '50', MCP_TASKS_MAX_PER_TENANT: '2' })).toMatchObject({
      http: { maxSessionsPerPrincipal: 5 },
      tasks: { maxPerSubject: 1 },
    });
    expect(
      configProblems({
        MCP_HTTP_MAX_SESSIONS: '50',
        MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL: '51',
        MCP_TASKS_MAX_PER_SUBJECT: '0',
      }),
    ).toEqual([
      'Invalid configuration: MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL="51" is not valid: expected an integer from 1 to 50.',
      'Invalid configuration: MCP_TASKS_MAX_PER_SUBJECT="0" is not valid: expected an integer from 1 to 100.',
    ]);
  });

  it.each([
    ['true', true],
    ['on', true],
    ['false', false],
    ['2', 2],
    ['::1, 127.0.0.1/32', ['::1', '127.0.0.1/32']],
  ] as const)('reads MCP_HTTP_TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ MCP_HTTP_TRUST_PROXY: value }).http.trustProxy).toEqual(expected);
  });

  it('refuses a MCP_HTTP_TRUST_PROXY entry that is neither an address nor a CIDR range, naming it', () => {
    expect(() => loadConfig({ MCP_HTTP_TRUST_PROXY: '10.0.0.0/8, proxy.internal, 10.1.2.3/40' })).toThrow(
      /MCP_HTTP_TRUST_PROXY="10.0.0.0\/8, proxy.internal, 10.1.2.3\/40" is not valid: .*\(not "proxy.internal", "10.1.2.3\/40"\)/,
    );
  });

  it('rejects bad HTTP settings, naming each variable and what it accepts', () => {
    expect(
      configProblems({
        MCP_HTTP_PORT: '70000',
        MCP_SESSION_MODE: 'sticky',
        MCP_HTTP_RESUMABILITY: 'maybe',
        MCP_HTTP_ENDPOINT_PATH: 'mcp',
      }),
    ).toEqual([
      'Invalid configuration: MCP_HTTP_ENDPOINT_PATH="mcp" is not valid: expected a path such as /mcp.',
      'Invalid configuration: MCP_HTTP_PORT="70000" is not valid: expected an integer from 0 to 65535.',
      'Invalid configuration: MCP_SESSION_MODE="sticky" is not valid: expected one of stateless, stateful, auto.',
      'Invalid configuration: MCP_HTTP_RESUMABILITY="maybe" is not valid: expected true or false.',
    ]);
  });

  it('rejects a headers timeout longer than the request timeout, naming both variables', () => {
    expect(
      configProblems({
        MCP_HTTP_HEADERS_TIMEOUT_MS: '5000',
        MCP_HTTP_REQUEST_TIMEOUT_MS: '1000',
      }),
    ).toEqual([
      'Invalid configuration: MCP_HTTP_HEADERS_TIMEOUT_MS (5000) is longer than MCP_HTTP_REQUEST_TIMEOUT_MS (1000): ' +
        'the headers are part of the request, so make it at most the request timeout.',
    ]);
  });

  it('rejects a JSON depth limit outside 4 to 1000', () => {
    expect(configProblems({ MCP_HTTP_MAX_JSON_DEPTH: '2' })).toEqual([
      'Invalid configuration: MCP_HTTP_MAX_JSON_DEPTH="2" is not valid: expected an integer from 4 to 1000.',
    ]);
  });

  it('offers the playground unless NODE_ENV=production, and MCP_PLAYGROUND decides either way', () => {
    expect(loadConfig({}).http.playground).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).http.playground).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', MCP_PLAYGROUND: 'on' }).http.playground).toBe(true);
    expect(loadConfig({ MCP_PLAYGROUND: 'off' }).http.playground).toBe(false);
    expect(configProblems({ MCP_PLAYGROUND: 'yes' })).toEqual([
      'Invalid configuration: MCP_PLAYGROUND="yes" is not valid: expected one of on, off.',
    ]);
  });

  it('lets code seed the session mode while MCP_SESSION_MODE still wins', () => {
    expect(loadConfig({}, { sessionMode: 'stateful' }).http.sessionMode).toBe('stateful');
    expect(loadConfig({ MCP_SESSION_MODE: 'stateless' }, { sessionMode: 'stateful' }).http.sessionMode).toBe(
      'stateless',
    );
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
    expect(config).toMatchObject({
      transportType: 'stdio',
      logLevel: 'warning',
      storage: { type: 'filesystem', path: '/var/lib/kiln' },
    });
  });

  it('ignores a filesystem path when storage is in memory', () => {
    expect(loadConfig({ STORAGE_FILESYSTEM_PATH: '/tmp/unused' }).storage).toEqual({
      type: 'in-memory',
      maxEntriesPerTenant: 10_000,
      sweepIntervalMs: 60_000,
    });
  });

  it('reads the storage bounds, and refuses a zero quota or a sweep more often than once a second', () => {
    const env = { STORAGE_MAX_ENTRIES_PER_TENANT: '500', STORAGE_SWEEP_INTERVAL_MS: '5000' };
    expect(loadConfig(env).storage).toMatchObject({ maxEntriesPerTenant: 500, sweepIntervalMs: 5000 });
    expect(configProblems({ STORAGE_MAX_ENTRIES_PER_TENANT: '0', STORAGE_SWEEP_INTERVAL_MS: '10' })).toEqual([
      'Invalid configuration: STORAGE_MAX_ENTRIES_PER_TENANT="0" is not valid: expected an integer from 1 to 100000000.',
      'Invalid configuration: STORAGE_SWEEP_INTERVAL_MS="10" is not valid: expected an integer from 1000 to 86400000.',
    ]);
  });

  it('reads process.env when given nothing', () => {
    vi.stubEnv('MCP_LOG_LEVEL', 'critical');
    expect(loadConfig().logLevel).toBe('critical');
  });

  it('rejects an unknown transport, naming the variable, the value and the accepted values', () => {
    expect(configProblems({ MCP_TRANSPORT_TYPE: 'carrier-pigeon' })).toEqual([
      'Invalid configuration: MCP_TRANSPORT_TYPE="carrier-pigeon" is not valid: expected one of stdio, http.',
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
    expect(configProblems({ STORAGE_PROVIDER_TYPE: 'tape' })).toEqual([
      'Invalid configuration: STORAGE_PROVIDER_TYPE="tape" is not valid: expected one of in-memory, filesystem, redis.',
    ]);
  });

  it('reads Redis as one node (REDIS_URL) or a Cluster (REDIS_CLUSTER_NODES), never both or neither', () => {
    expect(loadConfig({ STORAGE_PROVIDER_TYPE: 'redis', REDIS_URL: 'redis://127.0.0.1:6390' }).storage).toMatchObject({
      type: 'redis',
      url: 'redis://127.0.0.1:6390',
    });
    expect(
      loadConfig({ STORAGE_PROVIDER_TYPE: 'redis', REDIS_CLUSTER_NODES: ' a:1, b:2 ,', REDIS_KEY_PREFIX: 'svc' })
        .storage,
    ).toMatchObject({ type: 'redis', clusterNodes: ['a:1', 'b:2'], keyPrefix: 'svc' });
    expect(configProblems({ STORAGE_PROVIDER_TYPE: 'redis' })).toEqual([
      expect.stringContaining('STORAGE_PROVIDER_TYPE=redis needs REDIS_URL'),
    ]);
    expect(
      configProblems({ STORAGE_PROVIDER_TYPE: 'redis', REDIS_URL: 'redis://h:1', REDIS_CLUSTER_NODES: 'h:1' }),
    ).toEqual([expect.stringContaining('REDIS_URL and REDIS_CLUSTER_NODES are both set')]);
  });

  it('requires STORAGE_FILESYSTEM_PATH for filesystem storage', () => {
    expect(configProblems({ STORAGE_PROVIDER_TYPE: 'filesystem' })).toEqual([
      'Invalid configuration: STORAGE_FILESYSTEM_PATH is required when STORAGE_PROVIDER_TYPE=filesystem: set it to a directory path.',
    ]);
  });

  it('reports every bad variable together', () => {
    const problems = configProblems({
      MCP_TRANSPORT_TYPE: 'ftp',
      MCP_LOG_LEVEL: 'loud',
      STORAGE_PROVIDER_TYPE: 'filesystem',
    });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('MCP_TRANSPORT_TYPE="ftp"');
    expect(problems[1]).toContain('MCP_LOG_LEVEL="loud"');
    expect(problems[2]).toContain('STORAGE_FILESYSTEM_PATH is required');
  });

  it('puts every problem in the error message', () => {
    const error = (() => {
      try {
        loadConfig({ MCP_TRANSPORT_TYPE: 'ftp', STORAGE_PROVIDER_TYPE: 's3' });
      } catch (thrown) {
        return thrown as Error;
      }
    })();
    expect(error?.message).toBe(
      'Kiln could not start:\n' +
        '  - Invalid configuration: MCP_TRANSPORT_TYPE="ftp" is not valid: expected one of stdio, http.\n' +
        '  - Invalid configuration: STORAGE_PROVIDER_TYPE="s3" is not valid: expected one of in-memory, filesystem, redis.',
    );
  });

  describe('stdio', () => {
    it("leaves the line cap to the transport's default when MCP_STDIO_MAX_LINE_BYTES is unset", () => {
      expect(loadConfig({}).stdio).toEqual({ maxLineBytes: undefined, fastPath: true });
    });

    it('reads the line cap', () => {
      expect(loadConfig({ MCP_STDIO_MAX_LINE_BYTES: '65536' }).stdio).toEqual({ maxLineBytes: 65_536, fastPath: true });
    });

    it('turns the direct path off with MCP_STDIO_FAST_PATH=off, and refuses other values', () => {
      expect(loadConfig({ MCP_STDIO_FAST_PATH: 'off' }).stdio.fastPath).toBe(false);
      expect(configProblems({ MCP_STDIO_FAST_PATH: 'yes' })).toEqual([
        'Invalid configuration: MCP_STDIO_FAST_PATH="yes" is not valid: expected one of on, off.',
      ]);
    });

    it('rejects a line cap outside 1 KiB to 64 MiB, naming the range', () => {
      expect(configProblems({ MCP_STDIO_MAX_LINE_BYTES: '100' })).toEqual([
        'Invalid configuration: MCP_STDIO_MAX_LINE_BYTES="100" is not valid: expected an integer from 1024 to 67108864.',
      ]);
    });
  });

  describe('sealed requestState', () => {
    const KEY = 'a-test-key-of-exactly-32-bytes!!';

    it('leaves requestState unsealed by default, with a 900 s lifetime ready for when a key is set', () => {
      expect(loadConfig({}).requestState).toEqual({ secret: undefined, ttlSeconds: 900 });
    });

    it('reads the key and the lifetime', () => {
      expect(loadConfig({ MCP_REQUEST_STATE_KEY: KEY, MCP_REQUEST_STATE_TTL_SECONDS: '60' }).requestState).toEqual({
        secret: KEY,
        ttlSeconds: 60,
      });
    });

    it('counts the key in UTF-8 bytes: 16 two-byte characters are enough', () => {
      expect(loadConfig({ MCP_REQUEST_STATE_KEY: 'é'.repeat(16) }).requestState.secret).toBe('é'.repeat(16));
    });

    it('rejects a key under 32 bytes, naming the variable and the minimum but never the key', () => {
      const shortKey = `${'é'.repeat(15)}x`;
      const problems = configProblems({ MCP_REQUEST_STATE_KEY: shortKey });
      expect(problems).toEqual([
        'Invalid configuration: MCP_REQUEST_STATE_KEY is too short (31 bytes): it must be at least 32 bytes of ' +
          'UTF-8. Generate one with `openssl rand -base64 32`, or unset it to leave requestState unsealed.',
      ]);
      expect(problems.join('\n')).not.toContain(shortKey);
    });

    it.each(['0', '86401', '1.5', 'soon'])('rejects MCP_REQUEST_STATE_TTL_SECONDS=%s', (ttl) => {
      expect(configProblems({ MCP_REQUEST_STATE_TTL_SECONDS: ttl })).toEqual([
        `Invalid configuration: MCP_REQUEST_STATE_TTL_SECONDS="${ttl}" is not valid: expected an integer from 1 to 86400.`,
      ]);
    });

    it('accepts the lifetime bounds, 1 s and a day', () => {
      expect(loadConfig({ MCP_REQUEST_STATE_TTL_SECONDS: '1' }).requestState.ttlSeconds).toBe(1);
      expect(loadConfig({ MCP_REQUEST_STATE_TTL_SECONDS: '86400' }).requestState.ttlSeconds).toBe(86_400);
    });

    it('stops createApp on a short key', async () => {
      const boot = createTestingModule({ imports: [fixtureModule({})] }).compile({
        env: { MCP_REQUEST_STATE_KEY: 'too-short' },
      });
      await expect(boot).rejects.toBeInstanceOf(KilnBootError);
      await expect(boot).rejects.toThrow('MCP_REQUEST_STATE_KEY is too short (9 bytes): it must be at least 32 bytes');
    });
  });

  it('stops createApp before anything is compiled or served', async () => {
    const boot = createTestingModule({ imports: [fixtureModule({})] }).compile({
      env: { STORAGE_PROVIDER_TYPE: 'tape' },
    });
    await expect(boot).rejects.toBeInstanceOf(KilnBootError);
    await expect(boot).rejects.toThrow(
      'STORAGE_PROVIDER_TYPE="tape" is not valid: expected one of in-memory, filesystem, redis.',
    );
  });
});

describe('MCP_LOG_REDACT_FIELDS', () => {
  it('reads a comma-separated list of extra fields to mask, none by default', () => {
    expect(loadConfig({}).logRedactFields).toEqual([]);
    expect(loadConfig({ MCP_LOG_REDACT_FIELDS: ' pin, iban ,' }).logRedactFields).toEqual(['pin', 'iban']);
  });
});
