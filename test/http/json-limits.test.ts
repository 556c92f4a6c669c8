// What a POST body may contain beyond being JSON: nesting no deeper than MCP_HTTP_MAX_JSON_DEPTH (a deep body would
// overflow the stack where it is serialized again), and no key that could reach a prototype. Each refusal is a
// -32600 that names the problem, on both eras; a 5xx, should one happen, is logged with its cause.
import { createApp } from 'mcp-kiln';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, InMemorySessionRegistry } from '../../modules/http/index.js';
import { LOGGER } from '../../src/di/tokens.js';
import { createLogger } from '../../src/logging/index.js';
import { captureDestination } from '../logging/capture-destination.js';
import { HttpFixtureModule } from './helpers/http-fixture.module.js';
import {
  envelopeHeaders,
  envelopeRequest,
  HANDSHAKE_VERSION,
  handshakeToolsList,
  initializeRequest,
  type JsonRpcErrorBody,
  jsonRpcError,
  jsonRpcMessages,
  post,
  type RunningServer,
  startHttpServer,
} from './helpers/http-server.js';

/** `levels` arrays nested inside each other: `[[[...]]]`. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
/** A 2025 tools/list whose params carry `value` (raw JSON text); the message itself adds two levels. */
const handshakeWith = (value: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"extra":${value}}}`;
const handshakeHeaders = { 'mcp-protocol-version': HANDSHAKE_VERSION };

let server: RunningServer;

beforeAll(async () => {
  server = await startHttpServer();
});
afterAll(() => server.close());

async function expectRefused(response: Response, reason: string): Promise<JsonRpcErrorBody> {
  expect(response.status).toBe(400);
  const body = await jsonRpcError(response);
  expect(body).toMatchObject({ id: null, error: { code: -32600, data: { reason } } });
  expect(JSON.stringify(body)).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d/);
  return body;
}

async function expectStillServing(): Promise<void> {
  const response = await post(server.endpoint, handshakeToolsList(21), handshakeHeaders);
  expect(response.status).toBe(200);
  expect(await jsonRpcMessages(response)).toMatchObject([{ id: 21, result: { tools: expect.any(Array) } }]);
}

describe('nesting depth', () => {
  it('refuses 5000 levels (a 20 KB body) on a 2025 request with -32600 naming the limit', async () => {
    const body = handshakeWith(nested(5_000));
    expect(body.length).toBeGreaterThan(10_000);
    const refused = await expectRefused(await post(server.endpoint, body, handshakeHeaders), 'nesting_too_deep');
    expect(refused.error.message).toContain('more than 64 levels deep (MCP_HTTP_MAX_JSON_DEPTH)');
    expect(refused.error.data).toMatchObject({ limit: 64 });
    await expectStillServing();
  });

  it('refuses 5000 levels on a 2026-07-28 request instead of failing with a 500', async () => {
    const message = envelopeRequest('tools/call', { name: 'probe_whoami', arguments: {} });
    const text = JSON.stringify(message).replace('"arguments":{}', `"arguments":{"deep":${nested(5_000)}}`);
    const response = await post(server.endpoint, text, {
      ...envelopeHeaders('tools/call'),
      'mcp-name': 'probe_whoami',
    });
    await expectRefused(response, 'nesting_too_deep');
    await expectStillServing();
  });

  it('serves a message exactly at the limit and refuses one level more', async () => {
    // The message object is level 1 and params level 2, so 62 nested arrays inside params reach level 64.
    const atLimit = await post(server.endpoint, handshakeWith(nested(62)), handshakeHeaders);
    expect(atLimit.status).toBe(200);
    expect(await jsonRpcMessages(atLimit)).toMatchObject([{ id: 1, result: { tools: expect.any(Array) } }]);
    await expectRefused(await post(server.endpoint, handshakeWith(nested(63)), handshakeHeaders), 'nesting_too_deep');
  });

  it('follows MCP_HTTP_MAX_JSON_DEPTH', async () => {
    const shallow = await startHttpServer({ MCP_HTTP_MAX_JSON_DEPTH: '8' });
    try {
      expect((await post(shallow.endpoint, handshakeWith(nested(6)), handshakeHeaders)).status).toBe(200);
      const refused = await expectRefused(
        await post(shallow.endpoint, handshakeWith(nested(7)), handshakeHeaders),
        'nesting_too_deep',
      );
      expect(refused.error.data).toMatchObject({ limit: 8 });
    } finally {
      await shallow.close();
    }
  });
});

describe('prototype-pollution keys', () => {
  it.each([
    ['__proto__ in params', handshakeWith('{}').replace('"extra"', '"__proto__"'), 'params.__proto__', '__proto__'],
    [
      '__proto__ deep in tool arguments',
      handshakeWith('{"a":[{"b":{"__proto__":{"polluted":true}}}]}'),
      'params.extra.a[0].b.__proto__',
      '__proto__',
    ],
    [
      'constructor.prototype',
      handshakeWith('{"constructor":{"prototype":{"polluted":true}}}'),
      'params.extra.constructor',
      'constructor.prototype',
    ],
  ])('refuses %s with forbidden_key, naming the key and where it is', async (_label, body, where, key) => {
    const refused = await expectRefused(await post(server.endpoint, body, handshakeHeaders), 'forbidden_key');
    expect(refused.error.message).toContain(`"${key}" at ${where}`);
    expect(refused.error.message).not.toMatch(/not valid JSON/);
    expect(refused.error.data).toMatchObject({ key });
    expect({}.constructor.prototype).not.toHaveProperty('polluted');
    await expectStillServing();
  });

  it('lets ordinary keys named constructor or prototype through', async () => {
    const response = await post(
      server.endpoint,
      handshakeWith('{"constructor":"a string","prototype":{"x":1},"proto":1}'),
      handshakeHeaders,
    );
    expect(response.status).toBe(200);
    await response.text();
  });
});

describe('a body that is not a message', () => {
  it.each([
    ['empty', '', /body is empty/],
    ['malformed', '{"jsonrpc":"2.0",', /not valid JSON/],
  ])('answers an %s body with -32700', async (_label, body, message) => {
    const response = await post(server.endpoint, body, handshakeHeaders);
    expect(response.status).toBe(400);
    const refused = await jsonRpcError(response);
    expect(refused.error).toMatchObject({ code: -32700, data: { reason: 'parse_error' } });
    expect(refused.error.message).toMatch(message);
    await expectStillServing();
  });
});

describe('a 5xx', () => {
  it('is answered with a JSON-RPC error and logged at error level with its cause', async () => {
    const destination = captureDestination();
    const logger = createLogger({ level: 'info', name: 'kiln', destination });
    const app = await createApp(HttpFixtureModule, {
      name: 'kiln-http-failing',
      version: '1.0.0',
      serve: false,
      overrides: new Map([[LOGGER, { provide: LOGGER, useValue: logger }]]),
      env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_SESSION_MODE: 'stateful' },
    });
    class FailingRegistry extends InMemorySessionRegistry {
      override async add(): Promise<void> {
        throw new Error('session registry unreachable');
      }
    }
    const serving = await app.serve(http({ registry: new FailingRegistry() }));
    try {
      const response = await post(serving.endpointUrl, initializeRequest());
      expect(response.status).toBe(500);
      const body = await jsonRpcError(response);
      expect(body.error).toMatchObject({ code: -32603, data: { reason: 'internal_error' } });
      expect(JSON.stringify(body)).not.toMatch(/unreachable|\bat \S+ \(|node_modules/);

      const logged = destination.lines.find((line) => line.msg === 'MCP request answered HTTP 500');
      expect(logged).toMatchObject({ level: 'error', status: 500, err: { message: 'session registry unreachable' } });
      expect(serving.liveSessions()).toBe(0);
    } finally {
      await serving.close();
      await app.close();
    }
  });
});
