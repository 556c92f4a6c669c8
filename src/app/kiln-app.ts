// A compiled, running Kiln app: the port hosts serve it through (src/app/app-port.ts), direct calls that run the
// full pipeline without a transport (scripts, the testing kit), singletons by token, and the one shutdown path:
// stop accepting → drain requests in flight → close hosts → module hooks in reverse → container.
import type {
  AuthInfo,
  CallToolResult,
  GetPromptResult,
  Implementation,
  ReadResourceResult,
  Server,
} from '@modelcontextprotocol/server';
import type { InjectionToken } from '../../decorators/types.js';
import type { KilnConfig } from '../config/kiln-config.js';
import { CallCancellation } from '../context/call-cancellation.js';
import type { ProtocolEra } from '../context/context.js';
import { type AuthContext, generateRequestId } from '../context/request-context.js';
import { CONTEXT, KILN_CONFIG, LOGGER, tokenName } from '../di/tokens.js';
import type { JsonRpcErrorResponse } from '../errors/json-rpc-body.js';
import type { Logger } from '../logging/index.js';
import type { ChangeSink } from '../notifications/change-notifier.js';
import { type OperationSeed, runDirect } from '../pipeline/operation-runner.js';
import { PROMPT_OPERATION } from '../pipeline/prompt-get.js';
import { RESOURCE_OPERATION } from '../pipeline/resource-read.js';
import { TOOL_OPERATION } from '../pipeline/tool-pipeline.js';
import { readUiResource } from '../protocol/app-ui.js';
import { type EnvelopeCall, type EnvelopeCallAnswer, runEnvelopeCall } from '../protocol/direct-call.js';
import { headerParamMismatch, type RequestHeaders } from '../protocol/header-param-check.js';
import { DEFAULT_TENANT } from '../protocol/principal.js';
import { buildProtocolServer, type ProtocolServerOptions } from '../protocol/protocol-server.js';
import { scopeChallenge } from '../protocol/scope-gate.js';
import { type SinkClient, serverSink } from '../protocol/server-sink.js';
import { runSessionCall, type SessionAnswer, type SessionCall } from '../protocol/session-call.js';
import { type TaskWatch, watchTasks } from '../tasks/task-watch.js';
import { type AppCatalog, describeApp } from './app-catalog.js';
import type { AppPort, HostHandle, HostTelemetry, Serving } from './app-port.js';
import type { AppRuntime } from './app-runtime.js';
import type { EdgeRefusal } from './edge-refusal.js';

/** Who a direct call runs as, and what it carries. */
export interface DirectCallOptions {
  /** Default: `auth.tenantId` when `auth` is given (none if it has none, as a token without one), else 'default'. */
  readonly tenantId?: string;
  /** The principal (ctx.auth): its scopes meet @Scopes as a verified token's would. */
  readonly auth?: AuthContext;
  readonly signal?: AbortSignal;
}

/** How long shutdown waits for requests in flight before closing anyway, unless createApp says otherwise. */
export const DEFAULT_SHUTDOWN_DRAIN_MS = 10_000;

export class KilnApp implements AppPort {
  /** @internal The compiled runtime: for Kiln's own white-box tests, not part of the public API. */
  readonly runtime: AppRuntime;
  readonly config: KilnConfig;
  readonly logger: Logger;
  private readonly hosts = new Set<HostHandle>();
  private readonly drainMs: number;
  private closing: Promise<void> | undefined;
  private leaving = false;

  /** @internal Apps are made by createApp (or the testing kit) from a compiled runtime. */
  constructor(runtime: AppRuntime, options: { readonly shutdownDrainMs?: number } = {}) {
    this.runtime = runtime;
    this.config = runtime.container.resolve<KilnConfig>(KILN_CONFIG);
    this.logger = runtime.container.resolve<Logger>(LOGGER);
    this.drainMs = options.shutdownDrainMs ?? this.config.shutdown.drainMs;
  }

  get draining(): boolean {
    return this.leaving;
  }

  checkStorage(): Promise<void> {
    return this.runtime.probeStorage();
  }

  get serverInfo(): Implementation {
    return this.runtime.serverInfo;
  }

  get inFlight(): number {
    return this.runtime.inFlight.size;
  }

  get telemetry(): HostTelemetry {
    return this.runtime.hostTelemetry;
  }

  get auditRefusal(): ((refusal: EdgeRefusal) => void) | undefined {
    return this.runtime.auditRefusal;
  }

  createServer(era: ProtocolEra, options: ProtocolServerOptions = { exposesSessionId: false }): Server {
    return buildProtocolServer(this.runtime, era, options);
  }

  runEnvelopeCall(call: EnvelopeCall): Promise<EnvelopeCallAnswer> {
    return runEnvelopeCall(this.runtime, call);
  }

  watchTasks(authInfo: AuthInfo | undefined): TaskWatch | undefined {
    const tasks = this.runtime.tasks;
    return tasks && watchTasks(tasks.runner, authInfo);
  }

  runSessionCall(call: SessionCall): Promise<SessionAnswer> {
    return runSessionCall(this.runtime, call);
  }

  onChange(sink: ChangeSink): () => void {
    return this.runtime.notifier.attach(sink);
  }

  sinkFor(server: Server, era: ProtocolEra, client?: SinkClient): ChangeSink {
    return serverSink(server, era, client);
  }

  scopeChallenge(message: unknown, authInfo: AuthInfo | undefined): readonly string[] | undefined {
    return scopeChallenge(this.runtime, message, authInfo);
  }

  catalog(): AppCatalog {
    return describeApp(this.runtime);
  }

  headerParamMismatch(message: unknown, headers: RequestHeaders): JsonRpcErrorResponse | undefined {
    return headerParamMismatch(this.runtime.tools, message, headers);
  }

  /** A singleton from the root container by token: a framework provider (LOGGER, NOTIFIER, …) or a module's. */
  get<T>(token: InjectionToken<T>): T {
    const scope = this.runtime.providerScopes.get(token);
    if (scope === undefined) {
      throw new TypeError(`get(${tokenName(token)}): no module of this app provides it.`);
    }
    if (scope === 'request') {
      throw new TypeError(
        `get(${tokenName(token)}): it is request-scoped, so it exists only inside a request` +
          `${token === CONTEXT ? '' : '. Call a tool that uses it, or make it a singleton'}.`,
      );
    }
    return this.runtime.container.resolve(token as never) as T;
  }

  /** Serves through `host` until the app (or the returned handle) is closed. */
  async serve<H extends HostHandle>(host: { start(app: AppPort): Promise<H> }): Promise<Serving<H>> {
    if (this.closing) throw new Error(`${this.serverInfo.name} is closed; create a new app to serve again.`);
    const handle = await host.start(this);
    this.hosts.add(handle);
    return { ...handle, close: () => this.stop([handle]) } as Serving<H>;
  }

  callTool(name: string, args: unknown = {}, options: DirectCallOptions = {}): Promise<CallToolResult> {
    return runDirect(TOOL_OPERATION, this.runtime, name, args, directSeed(options));
  }

  readResource(uri: string, options: DirectCallOptions = {}): Promise<ReadResourceResult> {
    const view = readUiResource(this.runtime.uiResources, uri);
    if (view) return Promise.resolve(view);
    return runDirect(RESOURCE_OPERATION, this.runtime, uri, undefined, directSeed(options));
  }

  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: DirectCallOptions = {},
  ): Promise<GetPromptResult> {
    return runDirect(PROMPT_OPERATION, this.runtime, name, args, directSeed(options));
  }

  /**
   * Stops every host (requests in flight answer first, up to the drain timeout), runs the modules' destroy and
   * shutdown hooks in reverse dependency order (storage closes there), and disposes the root container. Safe to
   * call twice; `signal` reaches onApplicationShutdown.
   */
  close(signal?: string): Promise<void> {
    this.closing ??= (async () => {
      // Readiness turns 503 now; the hosts keep serving through the grace, so a load balancer notices first.
      this.leaving = true;
      const graceMs = this.config.shutdown.readyGraceMs;
      if (graceMs > 0 && this.hosts.size > 0) {
        this.logger.info({ graceMs }, 'Not ready any more; serving on through the ready grace before draining');
        await new Promise((resolve) => setTimeout(resolve, graceMs));
      }
      await this.stop([...this.hosts]);
      // Before storage closes: tasks still running here are recorded as interrupted, not left to their lease.
      await this.runtime.tasks?.runner.close();
      await this.runtime.closeObservers();
      await this.runtime.hooks.shutdown(signal);
      await this.runtime.container.dispose();
    })();
    return this.closing;
  }

  /** The one drain: stop accepting everywhere, wait for requests in flight, then close. */
  private async stop(handles: readonly HostHandle[]): Promise<void> {
    const open = handles.filter((handle) => this.hosts.delete(handle));
    if (open.length === 0) return;
    await Promise.allSettled(open.map((handle) => handle.stopAccepting?.()));
    if (!(await this.runtime.inFlight.drained(this.drainMs))) {
      this.logger.warning(
        { inFlight: this.runtime.inFlight.size },
        `Requests still running after ${this.drainMs} ms were abandoned.`,
      );
    }
    await Promise.allSettled(open.map((handle) => handle.close()));
  }
}

function directSeed(options: DirectCallOptions): OperationSeed {
  return {
    requestId: generateRequestId(),
    tenantId: options.tenantId ?? (options.auth ? options.auth.tenantId : DEFAULT_TENANT),
    auth: options.auth,
    era: 'envelope',
    signal: options.signal ?? new CallCancellation(),
    clientCapabilities: undefined,
    channel: {},
  };
}
