// The era bridge: what the SDK knows about a request (its id, envelope, signal, notification channel) turned into
// a ContextSeed. Logging and progress go through the SDK so each era's delivery rules apply unchanged.
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../context/context.js';
import type { ContextSeed } from '../context/create-context.js';
import { generateRequestId } from '../context/request-context.js';
import type { ChangeSink } from '../notifications/change-notifier.js';
import { requestPrincipal } from './principal.js';
import type { RequestStateSealing } from './request-state-sealing.js';

export interface SeedOptions {
  readonly era: ProtocolEra;
  readonly server: Server;
  /** False on stdio: `ctx.sessionId` is never set there. */
  readonly exposesSessionId: boolean;
  /** A 2025-era request served per request (stateless HTTP) has no view of what the client declared. */
  readonly perRequestLegacy: boolean;
  /** Where ctx.notify* go: the app's notifier, which fans out to every connection, session and listen stream. */
  readonly notifier: ChangeSink;
  /** Set when MCP_REQUEST_STATE_KEY is: the rounds this request asks for carry sealed requestState. */
  readonly sealing?: RequestStateSealing;
}

export function seedFromRequest(sdk: ServerContext, options: SeedOptions, operation: string): ContextSeed {
  const { era, server, notifier, sealing } = options;
  const id = sdk.mcpReq.id;
  const progressToken = sdk.mcpReq._meta?.progressToken;
  const principal = requestPrincipal(sdk);
  const resources = resourceChannel(notifier, principal.tenantId);
  return {
    requestId: typeof id === 'string' && id.length > 0 ? id : generateRequestId(),
    operation,
    tenantId: principal.tenantId,
    auth: principal.auth,
    sessionId: options.exposesSessionId ? sdk.sessionId : undefined,
    era,
    signal: sdk.mcpReq.signal,
    // Multi-round-trip input (ctx.inputs): this round's answers as the SDK lifted them, filtered by the Context.
    inputResponses: sdk.mcpReq.inputResponses,
    droppedInputResponseKeys: sdk.mcpReq.droppedInputResponseKeys,
    requestState: sdk.mcpReq.requestState,
    // Minted from this request's context, so the seal binds the principal the SDK's verify hook will check.
    sealRequestState: sealing ? (state) => sealing.seal(state, sdk) : undefined,
    clientCapabilities:
      era === 'modern'
        ? modernCapabilities(sdk)
        : options.perRequestLegacy
          ? undefined
          : server.getClientCapabilities(),
    channel: {
      log: (level, payload) => sdk.mcpReq.log(level, payload),
      progress:
        progressToken === undefined
          ? undefined
          : (params) => sdk.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...params } }),
      toolListChanged: notifier.toolsChanged,
      promptListChanged: notifier.promptsChanged,
      resourceListChanged: resources.resourceListChanged,
      resourceUpdated: resources.resourceUpdated,
      // Set by the SDK only where the stream can be resumed: a 2025 session transport with an event store.
      closeStream: sdk.http?.closeSSE,
    },
  };
}

/**
 * Resource events a request publishes are scoped to its tenant. An authenticated request without a tenant has no
 * clients of its own to tell, and must not reach every tenant's, so its resource events go nowhere.
 */
function resourceChannel(notifier: ChangeSink, tenantId: string | undefined) {
  if (tenantId === undefined) return { resourceListChanged: ignoreEvent, resourceUpdated: ignoreEvent };
  return {
    resourceListChanged: () => notifier.resourcesChanged(tenantId),
    resourceUpdated: (uri: string) => notifier.resourceUpdated(uri, tenantId),
  };
}

const ignoreEvent = (): void => undefined;

/** The 2026-07-28 envelope as sent: `{}` when the client declared nothing. */
function modernCapabilities(sdk: ServerContext): ClientCapabilities | undefined {
  const envelope = sdk.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}
