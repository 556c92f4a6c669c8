// Pins the runtime surface of every entry point in package.json `exports`: adding or removing an export is a
// deliberate change to this list, never an accident.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import * as auth from '../modules/auth/index.js';
import * as http from '../modules/http/index.js';
import * as errors from '../src/errors/index.js';
import * as host from '../src/host/index.js';
import * as kiln from '../src/index.js';
import * as testing from '../src/testing/index.js';

const exportNames = (entry: object) => Object.keys(entry).sort();

describe('public API', () => {
  it('mcp-kiln exports exactly these names', () => {
    expect(exportNames(kiln)).toEqual([
      'CONTEXT',
      'Cache',
      'DEFAULT_SHUTDOWN_DRAIN_MS',
      'Disabled',
      'Enrichment',
      'Errors',
      'Inject',
      'Injectable',
      'InputAlias',
      'KILN_CONFIG',
      'KilnApp',
      'LOGGER',
      'Module',
      'NOTIFIER',
      'Prompt',
      'Quota',
      'RateLimit',
      'RequiresConsent',
      'Resource',
      'STORAGE',
      'Scopes',
      'Tool',
      'USAGE',
      'UseFilters',
      'UseGuards',
      'UseInterceptors',
      'createApp',
      'createToken',
      'headerParam',
      'inputRequired',
      'listen',
      'loadConfig',
      'skill',
      'skillsFromFolder',
      'stdio',
      'uiResource',
      'withExtra',
    ]);
  });

  it('mcp-kiln/testing exports exactly these names', () => {
    expect(exportNames(testing)).toEqual([
      'ENVELOPE_PROTOCOL_VERSION',
      'TestingApp',
      'createInMemoryStorage',
      'createMockContext',
      'createTestingModule',
      'expectInputRequired',
      'getContentBlocks',
      'getEnrichment',
      'getEnrichmentKinds',
      'getLogs',
      'getProgress',
      'runToolContract',
      'startTestIssuer',
    ]);
  });

  it('mcp-kiln/errors exports exactly these names', () => {
    expect(exportNames(errors)).toEqual([
      'JsonRpcErrorCode',
      'KILN_REASONS',
      'KilnBootError',
      'McpError',
      'configurationError',
      'conflict',
      'edgeError',
      'errorCodeName',
      'forbidden',
      'internalError',
      'invalidParams',
      'invalidRequest',
      'isProtocolError',
      'jsonRpcErrorResponse',
      'kilnError',
      'notFound',
      'rateLimited',
      'reasonEntry',
      'serializationError',
      'serviceUnavailable',
      'storageError',
      'timeout',
      'unauthorized',
      'validationError',
    ]);
  });

  it('mcp-kiln/http exports exactly these names', () => {
    expect(exportNames(http)).toEqual([
      'InMemoryServerEventBus',
      'InMemorySessionEventStore',
      'InMemorySessionRegistry',
      'NoSessionPeers',
      'eventTenant',
      'http',
      'isPrimingEvent',
      'kilnFastify',
      'landingPageModel',
      'nodeHandler',
    ]);
  });

  it('mcp-kiln/host exports exactly these names', () => {
    expect(exportNames(host)).toEqual([
      'AUTH_MODES',
      'CHANGE_EVENT_ID_META',
      'CallCancellation',
      'EnvReader',
      'HTTP_FACT_HEADERS',
      'changeEventIdOf',
      'directCallOf',
      'fallbacksOver',
      'httpInfoFromNodeHeaders',
      'isLevelEnabled',
      'principalKey',
      'principalOf',
      'sessionCallOf',
      'signalOf',
      'withChangeEventId',
    ]);
  });

  it('mcp-kiln/auth exports exactly these names', () => {
    expect(exportNames(auth)).toEqual([
      'AuthUnavailableError',
      'BearerAuth',
      'DEFAULT_CLAIM_MAPPING',
      'DEFAULT_OAUTH_ALGORITHMS',
      'IDENTITY_PRESETS',
      'InvalidTokenError',
      'SECRET_KEY_MIN_BYTES',
      'authFromEnv',
      'authInfoFromClaims',
      'expandScopes',
      'introspectionVerifier',
      'jwksVerifier',
      'parseScopeHierarchy',
      'sharedSecretVerifier',
    ]);
  });

  it('gives every runtime name one home: no two entry points export the same name', async () => {
    const entries: Record<string, object> = {
      'mcp-kiln': kiln,
      'mcp-kiln/auth': auth,
      'mcp-kiln/errors': errors,
      'mcp-kiln/host': host,
      'mcp-kiln/http': http,
      'mcp-kiln/redis': await import('../modules/redis/index.js'),
      'mcp-kiln/storage': await import('../src/storage/index.js'),
      'mcp-kiln/testing': testing,
    };
    const homes = new Map<string, string[]>();
    for (const [entry, module] of Object.entries(entries)) {
      for (const name of Object.keys(module)) homes.set(name, [...(homes.get(name) ?? []), entry]);
    }
    const twice = [...homes]
      .filter(([, where]) => where.length > 1)
      .map(([name, where]) => `${name}: ${where.join(', ')}`);
    expect(twice).toEqual([]);
  });

  it('package.json declares exactly the pinned entry points', async () => {
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(manifest.exports).sort()).toEqual([
      '.',
      './auth',
      './errors',
      './host',
      './http',
      './package.json',
      './redis',
      './storage',
      './testing',
    ]);
  });
});
