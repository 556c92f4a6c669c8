// A compiled, running Kiln app: builds protocol servers for transports, serves, and offers direct calls that run
// the full pipeline without a transport (for the testing kit and scripts).
import type {
  AuthInfo,
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
  Server,
  Transport,
} from '@modelcontextprotocol/server';
import { exitOnSignals } from '../bootstrap/process-signals.js';
import type { KilnConfig } from '../config/kiln-config.js';
import type { ProtocolEra } from '../context/context.js';
import type { ContextSeed } from '../context/create-context.js';
import { type AuthContext, generateRequestId } from '../context/request-context.js';
import { invalidParams } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { getPrompt } from '../pipeline/prompt-get.js';
import { readResource } from '../pipeline/resource-read.js';
import { runToolCall } from '../pipeline/tool-pipeline.js';
import { DEFAULT_TENANT } from '../protocol/principal.js';
import { buildProtocolServer, type ProtocolServerOptions } from '../protocol/protocol-server.js';
import type { StorageService } from '../storage/index.js';
import { type ServingHandle, type StdioServeOptions, serveOverStdio } from '../transports/stdio-transport.js';
import type { KilnRuntime } from './app-runtime.js';
import type { CompiledApp } from './compile-app.js';

/** Who a direct call runs as, and what it carries. */
export interface DirectCallOptions {
  readonly tenantId?: string;
  readonly auth?: AuthContext;
  readonly signal?: AbortSignal;
}

export class KilnApp {
  readonly runtime: KilnRuntime;
  readonly config: KilnConfig;
  readonly logger: Logger;
  private readonly storage: StorageService;
  private readonly serving = new Set<ServingHandle>();
  private closing: Promise<void> | undefined;

  constructor(compiled: CompiledApp) {
    this.runtime = compiled.runtime;
    this.config = compiled.config;
    this.storage = compiled.storage;
    this.logger = compiled.runtime.logger;
  }

  /** A protocol server for one connection or request of the given era. */
  createServer(era: ProtocolEra, options: ProtocolServerOptions = { exposesSessionId: false }): Server {
    return buildProtocolServer(this.runtime, era, options);
  }

  /**
   * Serves on the transport MCP_TRANSPORT_TYPE selects, and ends the process cleanly on SIGTERM, SIGINT and (stdio)
   * stdin EOF. HTTP is loaded only when selected, so a stdio server never loads Fastify.
   */
  async listen(options: StdioServeOptions = {}): Promise<ServingHandle> {
    if (this.config.transportType === 'http') {
      const { serveOverHttp } = await import('../../modules/http/index.js');
      const serving = await serveOverHttp(this, this.config.http);
      process.stdout.write(
        `${this.runtime.serverInfo.name} is serving MCP over HTTP.\n  Landing page: ${serving.url}\n  MCP endpoint: ${serving.endpointUrl}\n`,
      );
      this.logger.info({ url: serving.url, endpoint: serving.endpointUrl }, 'Serving MCP over HTTP');
      exitOnSignals(this);
      return this.track(serving);
    }
    const handle = this.track(serveOverStdio(this, options));
    exitOnSignals(this, options.stdin ?? process.stdin);
    return handle;
  }

  /**
   * Serves both eras over any SDK transport (an in-memory pair, a custom pipe). `authInfo` is who the connection runs
   * as, for a host that authenticated it: ctx.auth, ctx.tenantId and the principal sealed requestState binds.
   */
  connect(transport: Transport, options: { readonly authInfo?: AuthInfo } = {}): ServingHandle {
    return this.track(serveOverStdio(this, { transport, ...options }));
  }

  // async, so an unknown name rejects the returned promise like every other failure instead of throwing synchronously.
  async callTool(name: string, args: unknown = {}, options: DirectCallOptions = {}): Promise<CallToolResult> {
    const tool = this.runtime.tools.get(name);
    if (!tool) throw invalidParams(`Unknown tool: ${name}.`, { reason: 'unknown_tool' });
    return runToolCall(this.runtime, tool, args, { ...directSeed(options), operation: name });
  }

  readResource(uri: string, options: DirectCallOptions = {}): Promise<ReadResourceResult> {
    return readResource(this.runtime, this.runtime.resources, uri, directSeed(options));
  }

  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: DirectCallOptions = {},
  ): Promise<GetPromptResult> {
    const prompt = this.runtime.prompts.get(name);
    if (!prompt) throw invalidParams(`Unknown prompt: ${name}.`, { reason: 'unknown_prompt' });
    return getPrompt(this.runtime, prompt, args, directSeed(options));
  }

  /** Stops serving, disposes the root container and closes storage. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const handles = [...this.serving];
      this.serving.clear();
      await Promise.allSettled(handles.map((h) => h.close()));
      await this.runtime.container.dispose();
      await this.storage.close();
    })();
    return this.closing;
  }

  private track(handle: ServingHandle): ServingHandle {
    const tracked: ServingHandle = {
      close: async () => {
        this.serving.delete(tracked);
        await handle.close();
      },
    };
    this.serving.add(tracked);
    return tracked;
  }
}

function directSeed(options: DirectCallOptions): Omit<ContextSeed, 'operation'> {
  return {
    requestId: generateRequestId(),
    tenantId: options.tenantId ?? options.auth?.tenantId ?? DEFAULT_TENANT,
    auth: options.auth,
    era: 'modern',
    signal: options.signal ?? new AbortController().signal,
    clientCapabilities: undefined,
    channel: {},
  };
}
