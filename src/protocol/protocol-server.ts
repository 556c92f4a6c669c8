// Builds the SDK's low-level Server for one connection (stdio) or one request (2026-07-28 HTTP) from the compiled
// runtime. Handlers close over precomputed results, so building a server costs a handful of closures.
import {
  isInputRequiredResult,
  type Resource,
  type Server,
  type ServerContext,
  type ServerOptions,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../context/context.js';
import { unmetScopes } from '../context/scope-check.js';
import { runScopedHandler } from '../pipeline/scoped-handler.js';
import { isCreateTaskResult } from '../tasks/task-record.js';
import { serveTasks } from '../tasks/tasks-server.js';
import { clientRendersApps } from './app-ui.js';
import { complete } from './completion.js';
import { runCall } from './direct-call.js';
import { requestPrincipal } from './principal.js';
import type { ProtocolRuntime } from './protocol-runtime.js';
import { clientCapabilitiesOf, seedFromRequest } from './request-seed.js';
import { serveResourceSubscriptions } from './server-sink.js';
import { serveSkills } from './skills-server.js';
import { answerWithTask, SpecParamsServer } from './spec-params-server.js';

export interface ProtocolServerOptions {
  /** True for sessionful 2025 HTTP: ctx.sessionId mirrors Mcp-Session-Id. */
  readonly exposesSessionId: boolean;
  /** True for 2025 HTTP served per request: no session, so no view of the client's capabilities. */
  readonly perRequestHandshake?: boolean;
  /**
   * 2026-07-28 revisions to add to the supported versions at construction, as the SDK's HTTP entry adds them to each
   * per-request server it binds (which also registers server/discover): for a host that binds one server for good.
   */
  readonly envelopeRevisions?: readonly string[];
}

export function buildProtocolServer(
  runtime: ProtocolRuntime,
  era: ProtocolEra,
  options: ProtocolServerOptions,
): Server {
  const sealing = runtime.requestStateSealing;
  const server = new SpecParamsServer(
    runtime.serverInfo,
    withRevisions(
      era === 'handshake' ? runtime.handshakeServerOptions : runtime.serverOptions,
      options.envelopeRevisions,
    ),
  );
  server.onerror = reportProtocolError(runtime);
  const seedOptions = {
    era,
    server,
    exposesSessionId: options.exposesSessionId,
    perRequestHandshake: options.perRequestHandshake ?? false,
    notifier: runtime.notifier,
    sealing,
  };
  const seed = (sdk: ServerContext, operation = '') => seedFromRequest(sdk, seedOptions, operation);
  const { capabilities, listings } = runtime;
  const served = <T>(work: Promise<T>) => runtime.inFlight.track(work);

  if (capabilities.tools) {
    server.setRequestHandler('tools/list', (_request, sdk) =>
      listTools(runtime, sdk, clientRendersApps(clientCapabilitiesOf(sdk, seedOptions))),
    );
    server.setRequestHandler('tools/call', async (request, sdk) => {
      const { name } = request.params;
      const result = await runCall(runtime, 'tools/call', name, request.params.arguments, seed(sdk));
      // An input_required round goes back as is: the SDK runs the 2025 shim or the 2026-07-28 retry flow on it.
      if (isInputRequiredResult(result)) return result;
      if (isCreateTaskResult(result)) return answerWithTask(result);
      return server.projectCallToolResult(result, runtime.tools.get(name)?.advertisedOutputSchema);
    });
  }
  if (capabilities.resources) {
    server.setRequestHandler('resources/list', async (_request, sdk) => ({
      resources: await served(listResources(runtime, seed(sdk))),
    }));
    server.setRequestHandler('resources/templates/list', () => listings.resourceTemplates);
    // 2025 only: the 2026-07-28 revision replaced resources/subscribe with subscriptions/listen filters.
    if (era === 'handshake') serveResourceSubscriptions(server);
    server.setRequestHandler('resources/read', (request, sdk) =>
      runCall(runtime, 'resources/read', request.params.uri, undefined, seed(sdk)),
    );
  }
  if (runtime.skills) serveSkills(server, runtime.skills, era);
  // 2026-07-28 only: the 2025-11-25 tasks/* of the same names are another protocol, which Kiln does not serve.
  if (runtime.tasks && era === 'envelope') serveTasks(server, runtime.tasks.runner, served);
  if (capabilities.prompts) {
    server.setRequestHandler('prompts/list', () => listings.prompts);
    server.setRequestHandler('prompts/get', (request, sdk) =>
      runCall(runtime, 'prompts/get', request.params.name, request.params.arguments, seed(sdk)),
    );
  }
  if (capabilities.completions) {
    server.setRequestHandler('completion/complete', (request, sdk) =>
      served(complete(runtime, request.params, seed(sdk))),
    );
  }
  return server;
}

function withRevisions(serverOptions: ServerOptions, revisions: readonly string[] | undefined): ServerOptions {
  if (revisions === undefined) return serverOptions;
  const supported = serverOptions.supportedProtocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
  const missing = revisions.filter((revision) => !supported.includes(revision));
  return { ...serverOptions, supportedProtocolVersions: [...supported, ...missing] };
}

/** What the SDK reports beside the wire: errors the client already got its answer for. */
function reportProtocolError(runtime: ProtocolRuntime): (error: Error) => void {
  return (error) => runtime.logger.debug({ err: error }, `Protocol error: ${error.message}`);
}

/**
 * Every tool (views named only for a client that renders them), or with MCP_AUTH_HIDE_FORBIDDEN_TOOLS only those the
 * caller's scopes can call: a per-caller list, which 2026-07-28 clients must not share (cache hints default to
 * `cacheScope: 'private'`).
 */
function listTools(runtime: ProtocolRuntime, sdk: ServerContext, rendersApps: boolean) {
  const tools = rendersApps ? runtime.listings.tools : runtime.listings.textTools;
  if (!runtime.hideForbiddenTools) return tools;
  const { auth } = requestPrincipal(sdk);
  if (!auth) return tools;
  return { tools: tools.tools.filter((tool) => !unmetScopes(runtime.tools.get(tool.name)?.scopes, auth)) };
}

/** Fixed resources, then whatever each template's `list()` enumerates (for templates the caller may read). */
async function listResources(runtime: ProtocolRuntime, seed: ReturnType<typeof seedFromRequest>): Promise<Resource[]> {
  const listed: Resource[] = runtime.resources.flatMap((r) => (r.listing ? [r.listing] : []));
  listed.push(...(runtime.uiResources?.listing ?? []), ...(runtime.skills?.listing ?? []));
  for (const resource of runtime.resources) {
    // list() is a handler: a caller without the template's scopes gets no instances, and no handler runs for it.
    if (!resource.listsInstances || unmetScopes(resource.scopes, seed.auth)) continue;
    const operation = `list resource ${resource.name}`;
    const instances = await runScopedHandler(
      runtime,
      { ...seed, operation },
      resource.resourceClass,
      resource.contract,
      (handler, context) => handler.list?.(context),
    );
    for (const instance of instances ?? []) {
      listed.push({ ...instance, ...(resource.mimeType && !instance.mimeType ? { mimeType: resource.mimeType } : {}) });
    }
  }
  return listed;
}
