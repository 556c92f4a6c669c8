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

/** Tenant of requests that carry no authenticated tenant (stdio, HTTP without auth). */
export const DEFAULT_TENANT = 'default';

export interface SeedOptions {
  readonly era: ProtocolEra;
  readonly server: Server;
  /** False on stdio: `ctx.sessionId` is never set there. */
  readonly exposesSessionId: boolean;
}

export function seedFromRequest(sdk: ServerContext, options: SeedOptions, operation: string): ContextSeed {
  const { era, server } = options;
  const id = sdk.mcpReq.id;
  const progressToken = sdk.mcpReq._meta?.progressToken;
  return {
    requestId: typeof id === 'string' && id.length > 0 ? id : generateRequestId(),
    operation,
    tenantId: DEFAULT_TENANT,
    sessionId: options.exposesSessionId ? sdk.sessionId : undefined,
    era,
    signal: sdk.mcpReq.signal,
    clientCapabilities: era === 'modern' ? modernCapabilities(sdk) : server.getClientCapabilities(),
    channel: {
      log: (level, payload) => sdk.mcpReq.log(level, payload),
      progress:
        progressToken === undefined
          ? undefined
          : (params) => sdk.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...params } }),
      toolListChanged: () => void server.sendToolListChanged().catch(() => undefined),
      promptListChanged: () => void server.sendPromptListChanged().catch(() => undefined),
      resourceListChanged: () => void server.sendResourceListChanged().catch(() => undefined),
      resourceUpdated: (uri) => void server.sendResourceUpdated({ uri }).catch(() => undefined),
    },
  };
}

/** The 2026-07-28 envelope as sent: `{}` when the client declared nothing. */
function modernCapabilities(sdk: ServerContext): ClientCapabilities | undefined {
  const envelope = sdk.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}
