// The Server Card over real HTTP: at <endpoint>/server-card, /.well-known/mcp.json and in the MCP Catalog, checked
// against the v2 card schema's rules (written here from the proposal's schema: required fields, patterns, lengths,
// no extra members), with the URL a client used, both protocol eras' versions, the Authorization header and resource
// metadata under auth (the card itself needs no token), no counts when auth hides tools, off with MCP_SERVER_CARD=off,
// under a kilnFastify prefix, and a client that connects to the URL the card names.
import { Ajv2020 } from 'ajv/dist/2020.js';
import Fastify from 'fastify';
import { createApp } from 'mcp-kiln';
import { kilnFastify } from 'mcp-kiln/http';
import { startTestIssuer, type TestIssuer } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServer, METADATA_URL, RESOURCE, startAuthServer } from './helpers/auth-server.js';
import { HttpFixtureModule } from './helpers/http-fixture.module.js';
import {
  connectClient,
  type RunningServer,
  SERVER_NAME,
  SERVER_VERSION,
  startHttpServer,
} from './helpers/http-server.js';

const input = {
  type: 'object',
  properties: {
    description: { type: 'string' },
    isRequired: { type: 'boolean' },
    isSecret: { type: 'boolean' },
    format: { enum: ['string', 'number', 'boolean', 'filepath'] },
    default: { type: 'string' },
    placeholder: { type: 'string' },
    value: { type: 'string' },
    choices: { type: 'array', items: { type: 'string' } },
  },
};

/** The v2 Server Card's rules as its schema states them. */
const CARD_SCHEMA = {
  type: 'object',
  required: ['$schema', 'name', 'version', 'description'],
  additionalProperties: false,
  properties: {
    $schema: { const: 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json' },
    name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
    version: { type: 'string', maxLength: 255, not: { pattern: '^[\\^~><=]|\\.x$|\\*' } },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    websiteUrl: { type: 'string' },
    icons: { type: 'array' },
    remotes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'url'],
        additionalProperties: false,
        properties: {
          type: { enum: ['streamable-http', 'sse'] },
          url: { type: 'string', pattern: '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$' },
          headers: {
            type: 'array',
            items: { ...input, required: ['name'], properties: { ...input.properties, name: { type: 'string' } } },
          },
          variables: { type: 'object' },
          supportedProtocolVersions: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    _meta: { type: 'object' },
  },
};
const checkCard = new Ajv2020({ allErrors: true }).compile(CARD_SCHEMA);

function expectValidCard(card: unknown): void {
  expect(checkCard(card), JSON.stringify(checkCard.errors)).toBe(true);
}

/** What the tests read of a card (or a catalog, which shares nothing with it but is read the same way). */
interface CardBody {
  readonly name: string;
  readonly description: string;
  readonly remotes: readonly { readonly url: string; readonly headers?: unknown }[];
  readonly _meta: Readonly<Record<string, { readonly counts?: { readonly tools: number }; readonly auth?: unknown }>>;
}

async function getJson(url: string, accept = 'application/json') {
  const response = await fetch(url, { headers: { accept } });
  return { response, body: (await response.json()) as CardBody };
}

const kilnMeta = (card: CardBody) => card._meta['mcp-kiln/server'] ?? {};

describe('the Server Card of an open server', () => {
  let server: RunningServer;
  let origin: string;
  beforeAll(async () => {
    server = await startHttpServer({ MCP_SERVER_CARD_NAME: 'test.kiln/http-fixture' });
    origin = new URL(server.serving.url).origin;
  });
  afterAll(() => server.close());

  it('is served at <endpoint>/server-card, valid, with the endpoint, versions, capabilities and counts', async () => {
    const { response, body } = await getJson(`${server.endpoint}/server-card`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expectValidCard(body);
    expect(body).toMatchObject({
      name: 'test.kiln/http-fixture',
      version: SERVER_VERSION,
      remotes: [
        {
          type: 'streamable-http',
          url: server.endpoint,
          supportedProtocolVersions: expect.arrayContaining(['2026-07-28', '2025-11-25', '2025-03-26']),
        },
      ],
      _meta: {
        'mcp-kiln/server': {
          capabilities: { tools: expect.any(Object), resources: expect.any(Object), prompts: expect.any(Object) },
          auth: { required: false },
          counts: { tools: expect.any(Number), resources: expect.any(Number), prompts: expect.any(Number) },
        },
      },
    });
    expect(body.remotes[0]?.headers).toBeUndefined();
    // No tool schemas: a card describes how to connect, not what is behind the connection.
    expect(JSON.stringify(body)).not.toContain('inputSchema');
    const { body: counted } = await getJson(`${server.endpoint}/server-card`);
    expect(kilnMeta(counted).counts?.tools).toBeGreaterThanOrEqual(2);
  });

  it('answers in the card media type when asked, and at /.well-known/mcp.json too', async () => {
    const asked = await getJson(`${server.endpoint}/server-card`, 'application/mcp-server-card+json');
    expect(asked.response.headers.get('content-type')).toMatch(/^application\/mcp-server-card\+json/);
    const wellKnown = await getJson(`${origin}/.well-known/mcp.json`);
    expect(wellKnown.response.status).toBe(200);
    expect(wellKnown.body).toEqual(asked.body);
  });

  it('is listed in the MCP Catalog at /.well-known/mcp/catalog.json', async () => {
    const { response, body } = await getJson(`${origin}/.well-known/mcp/catalog.json`);
    expect(response.status).toBe(200);
    expect(body).toEqual({
      specVersion: 'draft',
      entries: [
        {
          identifier: 'urn:air:127.0.0.1:http-fixture',
          displayName: SERVER_NAME,
          type: 'application/mcp-server-card+json',
          url: `${server.endpoint}/server-card`,
        },
      ],
    });
  });

  it('names a URL the official SDK client connects to', async () => {
    const { body } = await getJson(`${origin}/.well-known/mcp.json`);
    const { client } = await connectClient(body.remotes[0]?.url as string, 'envelope');
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBe(kilnMeta(body).counts?.tools);
    } finally {
      await client.close();
    }
  });

  it('derives a valid name from the host and server name when none is set', async () => {
    const plain = await startHttpServer();
    try {
      const { body } = await getJson(`${plain.endpoint}/server-card`);
      expectValidCard(body);
      expect(body.name).toBe(`local/${SERVER_NAME}`);
      expect(body.description.length).toBeLessThanOrEqual(100);
    } finally {
      await plain.close();
    }
  });
});

describe('the Server Card under auth', () => {
  let issuer: TestIssuer;
  let server: AuthServer;
  let hiding: AuthServer;
  beforeAll(async () => {
    issuer = await startTestIssuer({ audience: RESOURCE });
    server = await startAuthServer(issuer);
    hiding = await startAuthServer(issuer, { MCP_AUTH_HIDE_FORBIDDEN_TOOLS: 'true' });
  });
  afterAll(async () => {
    await server?.close();
    await hiding?.close();
    await issuer?.close();
  });

  it('needs no token, and names the Authorization header and the resource metadata', async () => {
    const { response, body } = await getJson(`${server.endpoint}/server-card`);
    expect(response.status).toBe(200);
    expectValidCard(body);
    expect(body.remotes[0]?.headers).toEqual([
      expect.objectContaining({ name: 'Authorization', isRequired: true, isSecret: true }),
    ]);
    expect(kilnMeta(body).auth).toMatchObject({
      required: true,
      resourceMetadata: METADATA_URL,
      authorizationServers: [issuer.issuer],
    });
  });

  it('leaves the counts out when tools are hidden from callers without the scopes', async () => {
    const { body } = await getJson(`${hiding.endpoint}/server-card`);
    expectValidCard(body);
    expect(kilnMeta(body).counts).toBeUndefined();
  });
});

describe('switching the Server Card off, and under a prefix', () => {
  it('serves none with MCP_SERVER_CARD=off', async () => {
    const server = await startHttpServer({ MCP_SERVER_CARD: 'off' });
    try {
      const origin = new URL(server.serving.url).origin;
      for (const url of [`${server.endpoint}/server-card`, `${origin}/.well-known/mcp.json`]) {
        const response = await fetch(url);
        expect(response.status, url).toBe(404);
        await response.text();
      }
    } finally {
      await server.close();
    }
  });

  it('follows a kilnFastify prefix, beside the user’s routes', async () => {
    const app = await createApp(HttpFixtureModule, { serve: false, name: 'embedded', version: '2.0.0' });
    const fastify = Fastify();
    fastify.get('/status', async () => ({ up: true }));
    await fastify.register(kilnFastify, { app, prefix: '/api/mcp' });
    await fastify.listen({ host: '127.0.0.1', port: 0 });
    try {
      const address = fastify.server.address();
      const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const { body } = await getJson(`${origin}/api/mcp/server-card`);
      expectValidCard(body);
      expect(body.remotes[0]?.url).toBe(`${origin}/api/mcp`);
      expect((await getJson(`${origin}/.well-known/mcp.json`)).body).toEqual(body);
    } finally {
      await fastify.close();
      await app.close();
    }
  });
});
