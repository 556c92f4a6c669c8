// Builds the SDK's low-level Server for one connection (stdio) or one request (2026-07-28 HTTP) from the compiled
// runtime. Handlers close over precomputed results, so building a server costs a handful of closures.
import {
  isInputRequiredResult,
  type Resource,
  Server,
  type ServerContext,
  type ServerOptions,
} from '@modelcontextprotocol/server';
import type { KilnRuntime } from '../app/app-runtime.js';
import type { ProtocolEra } from '../context/context.js';
import { invalidParams } from '../errors/index.js';
import { getPromptRound } from '../pipeline/prompt-get.js';
import { readResourceRound } from '../pipeline/resource-read.js';
import { runScopedHandler } from '../pipeline/scoped-handler.js';
import { runToolRound } from '../pipeline/tool-pipeline.js';
import { complete } from './completion.js';
import { seedFromRequest } from './request-seed.js';
import { serveResourceSubscriptions } from './server-sink.js';

export interface ProtocolServerOptions {
  /** True for sessionful 2025 HTTP: ctx.sessionId mirrors Mcp-Session-Id. */
  readonly exposesSessionId: boolean;
  /** True for 2025 HTTP served per request: no session, so no view of the client's capabilities. */
  readonly perRequestLegacy?: boolean;
}

// The options every server of one app shares, built on the first server rather than per request.
const serverOptionsByRuntime = new WeakMap<KilnRuntime, ServerOptions>();

function serverOptions(runtime: KilnRuntime): ServerOptions {
  let options = serverOptionsByRuntime.get(runtime);
  if (!options) {
    const sealing = runtime.requestStateSealing;
    options = {
      capabilities: runtime.capabilities,
      ...(runtime.cacheHints ? { cacheHints: runtime.cacheHints } : {}),
      ...(runtime.instructions ? { instructions: runtime.instructions } : {}),
      // The SDK runs the hook on every round (2025 shim rounds included) before the handler; a rejection is -32602.
      ...(sealing ? { requestState: { verify: sealing.verify } } : {}),
    };
    serverOptionsByRuntime.set(runtime, options);
  }
  return options;
}

export function buildProtocolServer(runtime: KilnRuntime, era: ProtocolEra, options: ProtocolServerOptions): Server {
  const sealing = runtime.requestStateSealing;
  const server = new Server(runtime.serverInfo, serverOptions(runtime));
  server.onerror = reportProtocolError(runtime);
  const seedOptions = {
    era,
    server,
    exposesSessionId: options.exposesSessionId,
    perRequestLegacy: options.perRequestLegacy ?? false,
    notifier: runtime.notifier,
    sealing,
  };
  const seed = (sdk: ServerContext, operation = '') => seedFromRequest(sdk, seedOptions, operation);
  const { capabilities, listings } = runtime;
  const served = <T>(work: Promise<T>) => runtime.inFlight.track(work);

  if (capabilities.tools) {
    server.setRequestHandler('tools/list', () => listings.tools);
    server.setRequestHandler('tools/call', async (request, sdk) => {
      const tool = runtime.tools.get(request.params.name);
      const requestSeed = seed(sdk, request.params.name);
      if (!tool) {
        throw invalidParams(`Unknown tool: ${request.params.name}.`, {
          reason: 'unknown_tool',
          recovery: { hint: 'Call tools/list to see the tools this server offers, then call one of those by name.' },
          requestId: requestSeed.requestId,
        });
      }
      const result = await served(runToolRound(runtime, tool, request.params.arguments, requestSeed));
      // An input_required round goes back as is: the SDK runs the 2025 shim or the 2026-07-28 retry flow on it.
      if (isInputRequiredResult(result)) return result;
      return server.projectCallToolResult(result, tool.advertisedOutputSchema);
    });
  }
  if (capabilities.resources) {
    server.setRequestHandler('resources/list', async (_request, sdk) => ({
      resources: await served(listResources(runtime, seed(sdk))),
    }));
    server.setRequestHandler('resources/templates/list', () => listings.resourceTemplates);
    // 2025 only: the 2026-07-28 revision replaced resources/subscribe with subscriptions/listen filters.
    if (era === 'legacy') serveResourceSubscriptions(server);
    server.setRequestHandler('resources/read', (request, sdk) =>
      served(readResourceRound(runtime, runtime.resources, request.params.uri, seed(sdk))),
    );
  }
  if (capabilities.prompts) {
    server.setRequestHandler('prompts/list', () => listings.prompts);
    server.setRequestHandler('prompts/get', (request, sdk) => {
      const prompt = runtime.prompts.get(request.params.name);
      const requestSeed = seed(sdk);
      if (!prompt) {
        throw invalidParams(`Unknown prompt: ${request.params.name}.`, {
          reason: 'unknown_prompt',
          recovery: { hint: 'Call prompts/list to see the prompts this server offers.' },
          requestId: requestSeed.requestId,
        });
      }
      return served(getPromptRound(runtime, prompt, request.params.arguments, requestSeed));
    });
  }
  if (capabilities.completions) {
    server.setRequestHandler('completion/complete', (request, sdk) =>
      served(complete(runtime, request.params, seed(sdk))),
    );
  }
  return server;
}

const REQUEST_STATE_REJECTED = /^requestState verification rejected (\S+): (.*)$/;

/**
 * What the SDK reports beside the wire: errors the client already got its answer for. A rejected requestState
 * names only the method and the reason (mac, bind, expired, malformed), never the state, which is logged nowhere.
 */
function reportProtocolError(runtime: KilnRuntime): (error: Error) => void {
  return (error) => {
    const rejected = REQUEST_STATE_REJECTED.exec(error.message);
    if (rejected) {
      runtime.logger.debug(
        { method: rejected[1], reason: rejected[2] },
        `requestState rejected on ${rejected[1]}: ${rejected[2]}`,
      );
      return;
    }
    runtime.logger.debug({ err: error }, `Protocol error: ${error.message}`);
  };
}

/** Fixed resources, then whatever each template's `list()` enumerates. */
async function listResources(runtime: KilnRuntime, seed: ReturnType<typeof seedFromRequest>): Promise<Resource[]> {
  const listed: Resource[] = runtime.resources.flatMap((r) => (r.listing ? [r.listing] : []));
  for (const resource of runtime.resources) {
    if (!resource.listsInstances) continue;
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
