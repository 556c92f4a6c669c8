// A compiled app for tests: direct calls through the full pipeline, singletons from the root container, and real
// SDK clients connected over an in-memory transport pair on either protocol era.
import { Client, type ClientCapabilities, InMemoryTransport } from '@modelcontextprotocol/client';
import type { AuthInfo, CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server';
import type { FastifyInstance } from 'fastify';
import type { KilnFastifyOptions } from 'mcp-kiln/http';
import type { InjectionToken } from '../../decorators/types.js';
import type { DirectCallOptions, KilnApp } from '../app/kiln-app.js';
import type { ProtocolEra } from '../context/context.js';
import { stdio } from '../transports/stdio-transport.js';

/** The 2026-07-28 revision a 'envelope' client pins, so it never falls back to the 2025 handshake. */
export const ENVELOPE_PROTOCOL_VERSION = '2026-07-28';

export interface ConnectClientOptions {
  /** 'handshake' (default): the 2025 initialize handshake. 'envelope': pinned to 2026-07-28. */
  readonly era?: ProtocolEra;
  /**
   * What the client declares (elicitation, sampling, roots). Answer the requests it then receives with
   * `client.setRequestHandler('elicitation/create', ...)` and friends.
   */
  readonly capabilities?: ClientCapabilities;
  /**
   * Who the client is: attached as the verified token's AuthInfo to every message the server receives, so a test can
   * act as different principals (ctx.auth, ctx.tenantId, the principal sealed requestState binds, @Scopes). Omitted,
   * the client is unauthenticated and runs as tenant 'default'.
   */
  readonly auth?: TestingPrincipal;
}

/** A principal for `connectClient`: the token's client id, `sub` and `tid` claims, and scopes. */
export interface TestingPrincipal {
  readonly clientId: string;
  readonly subject?: string;
  /** The tenant (`tid` claim); omitted, the request has no tenant and `ctx.state` refuses it, as under real auth. */
  readonly tenantId?: string;
  readonly scopes?: readonly string[];
}

/** What `TestingApp.http()` mounts: the kilnFastify options (prefix, auth, landing page, …) and routes of yours. */
export interface TestingHttpOptions extends Omit<KilnFastifyOptions, 'app'> {
  /** Runs first, on the fresh instance: register your plugins and routes, to test them beside the endpoint. */
  readonly configure?: (fastify: FastifyInstance) => void | Promise<void>;
}

export class TestingApp {
  private readonly clients: Client[] = [];
  private readonly instances: FastifyInstance[] = [];
  private closed = false;

  constructor(
    /** The underlying app, for what this wrapper does not cover. */
    readonly app: KilnApp,
    private readonly defaults: DirectCallOptions,
  ) {}

  callTool(name: string, args: unknown = {}, options: DirectCallOptions = {}): Promise<CallToolResult> {
    return this.app.callTool(name, args, { ...this.defaults, ...options });
  }

  readResource(uri: string, options: DirectCallOptions = {}): Promise<ReadResourceResult> {
    return this.app.readResource(uri, { ...this.defaults, ...options });
  }

  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: DirectCallOptions = {},
  ): Promise<GetPromptResult> {
    return this.app.getPrompt(name, args, { ...this.defaults, ...options });
  }

  /** A singleton from the root container (a framework provider or a module's): the instance every request shares. */
  get<T>(token: InjectionToken<T>): T {
    return this.app.get(token);
  }

  /** An official SDK client connected to this app in memory, as `options.auth` (or unauthenticated); closed by `close()`. */
  async connectClient(options: ConnectClientOptions = {}): Promise<Client> {
    if (this.closed) throw new Error('TestingApp.connectClient: the app is closed.');
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await this.app.serve(
      stdio({ transport: serverTransport, ...(options.auth ? { authInfo: testingAuthInfo(options.auth) } : {}) }),
    );
    const client = new Client(
      { name: 'kiln-testing', version: '0.0.0' },
      {
        ...(options.era === 'envelope' ? { versionNegotiation: { mode: { pin: ENVELOPE_PROTOCOL_VERSION } } } : {}),
        ...(options.capabilities ? { capabilities: options.capabilities } : {}),
      },
    );
    this.clients.push(client);
    await client.connect(clientTransport);
    return client;
  }

  /**
   * The app's HTTP surface on a Fastify instance that never listens (kilnFastify at `prefix`, `/mcp` by default),
   * for `inject()`: your routes and the MCP endpoint in one test, without a socket. Closed by `close()`.
   */
  async http(options: TestingHttpOptions = {}): Promise<FastifyInstance> {
    if (this.closed) throw new Error('TestingApp.http: the app is closed.');
    const { configure, ...mount } = options;
    const [{ default: Fastify }, { kilnFastify }] = await Promise.all([import('fastify'), import('mcp-kiln/http')]);
    const fastify = Fastify();
    this.instances.push(fastify);
    await configure?.(fastify);
    await fastify.register(kilnFastify, { ...mount, app: this.app });
    await fastify.ready();
    return fastify;
  }

  /** Closes every connected client and HTTP instance, then the app (serving handles, container, storage). Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled(this.clients.map((client) => client.close()));
    await Promise.allSettled(this.instances.map((fastify) => fastify.close()));
    await this.app.close();
  }
}

/** The AuthInfo a bearer-token verifier would produce for `principal` (claims in `extra`, as the principal reads them). */
function testingAuthInfo(principal: TestingPrincipal): AuthInfo {
  const extra: Record<string, unknown> = {};
  if (principal.subject !== undefined) extra.sub = principal.subject;
  if (principal.tenantId !== undefined) extra.tid = principal.tenantId;
  return { token: 'kiln-testing-token', clientId: principal.clientId, scopes: [...(principal.scopes ?? [])], extra };
}
