// The era bridge: what the SDK knows about a request (its id, envelope, signal, notification channel) turned into
// a ContextSeed. Logging and progress go through the SDK so each era's delivery rules apply unchanged.
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { SignalSource } from '../context/call-cancellation.js';
import type { ProtocolEra } from '../context/context.js';
import type { ContextSeed, RequestChannel } from '../context/create-context.js';
import { type HttpRequestInfo, httpInfoFromWebRequest } from '../context/http-request.js';
import { capabilitiesForVersion } from '../context/input-capabilities.js';
import { generateRequestId } from '../context/request-context.js';
import type { ChangeSink } from '../notifications/change-notifier.js';
import { type Principal, requestPrincipal } from './principal.js';
import type { RequestStateSealing } from './request-state-sealing.js';

export interface SeedOptions {
  readonly era: ProtocolEra;
  /** The connection's server, for a 2025 client's declared capabilities; absent on a host's direct 2026-07-28 call. */
  readonly server?: Server;
  /** False on stdio: `ctx.sessionId` is never set there. */
  readonly exposesSessionId: boolean;
  /** A 2025-era request served per request (stateless HTTP) has no view of what the client declared. */
  readonly perRequestHandshake: boolean;
  /** Where ctx.notify* go: the app's notifier, which fans out to every connection, session and listen stream. */
  readonly notifier: ChangeSink;
  /** Set when MCP_REQUEST_STATE_KEY is: the rounds this request asks for carry sealed requestState. */
  readonly sealing?: RequestStateSealing;
}

export function seedFromRequest(sdk: ServerContext, options: SeedOptions, operation: string): ContextSeed {
  const progressToken = sdk.mcpReq._meta?.progressToken;
  return seedFromFacts(
    {
      id: sdk.mcpReq.id,
      principal: requestPrincipal(sdk),
      sessionId: sdk.sessionId,
      signal: sdk.mcpReq.signal,
      inputResponses: sdk.mcpReq.inputResponses,
      droppedInputResponseKeys: sdk.mcpReq.droppedInputResponseKeys,
      requestState: sdk.mcpReq.requestState,
      meta: sdk.mcpReq._meta,
      sealWith: sdk,
      closeStream: sdk.http?.closeSSE,
      http: httpFactsOf(sdk.http?.req),
      envelopeCapabilities: () => envelopeCapabilities(sdk),
      log: (level, payload) => sdk.mcpReq.log(level, payload),
      progress:
        progressToken === undefined
          ? undefined
          : (params) => sdk.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...params } }),
    },
    options,
    operation,
  );
}

/** What a seed is built from, whether the SDK dispatched the request or a host's fast path did. */
export interface RequestFacts {
  readonly id: string | number;
  readonly principal: Principal;
  readonly sessionId?: string;
  readonly signal: SignalSource;
  readonly inputResponses?: ContextSeed['inputResponses'];
  readonly droppedInputResponseKeys?: readonly string[];
  readonly requestState?: ContextSeed['requestState'];
  /** The request's `_meta`, where a W3C trace context may ride (the parent of the operation's span). */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The context a sealed requestState is bound through (its principal). */
  readonly sealWith: Pick<ServerContext, 'http'>;
  /** The 2026-07-28 envelope's client capabilities, read only for an envelope-era request. */
  readonly envelopeCapabilities: () => ClientCapabilities | undefined;
  readonly log: NonNullable<RequestChannel['log']>;
  readonly progress: RequestChannel['progress'];
  /** Closes the request's SSE stream; set only where the stream can be resumed (a 2025 session with an event store). */
  readonly closeStream?: RequestChannel['closeStream'];
  /** The HTTP facts of the request (ctx.http), read on first use; absent over stdio. */
  readonly http?: () => HttpRequestInfo | undefined;
}

/** ctx.http of a request the SDK dispatched: from the web Request it rebuilt, when HTTP carried it. */
function httpFactsOf(request: Request | undefined): (() => HttpRequestInfo) | undefined {
  return request === undefined ? undefined : () => httpInfoFromWebRequest(request);
}

export function seedFromFacts(facts: RequestFacts, options: SeedOptions, operation: string): ContextSeed {
  const { era, notifier, sealing } = options;
  const { id, principal, sealWith } = facts;
  const resources = resourceChannel(notifier, principal.tenantId);
  return {
    requestId: typeof id === 'string' && id.length > 0 ? id : generateRequestId(),
    operation,
    tenantId: principal.tenantId,
    auth: principal.auth,
    sessionId: options.exposesSessionId ? facts.sessionId : undefined,
    traceCarrier: facts.meta,
    era,
    signal: facts.signal,
    // Multi-round-trip input (ctx.inputs): this round's answers as the SDK lifted them, filtered by the Context.
    inputResponses: facts.inputResponses,
    droppedInputResponseKeys: facts.droppedInputResponseKeys,
    requestState: facts.requestState,
    // Minted from this request's context, so the seal binds the principal the SDK's verify hook will check.
    sealRequestState: sealing ? (state) => sealing.seal(state, sealWith) : undefined,
    clientCapabilities: capabilitiesFor(options, facts.envelopeCapabilities),
    channel: {
      log: facts.log,
      progress: facts.progress,
      toolListChanged: notifier.toolsChanged,
      promptListChanged: notifier.promptsChanged,
      resourceListChanged: resources.resourceListChanged,
      resourceUpdated: resources.resourceUpdated,
      // Set by the SDK only where the stream can be resumed: a 2025 session transport with an event store.
      closeStream: facts.closeStream,
    },
    // Set by the operation runners (`{ ...seed, uri, task }`): present from the start, so those copies only overwrite
    // (adding a key to a spread copy takes V8's slow path for objects).
    uri: undefined,
    task: undefined,
    http: facts.http,
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

/**
 * What the client declared, as this era carries it: per request in the 2026-07-28 envelope, once per connection at
 * 2025 initialize; undefined for a 2025 request served per request, which has no view of it.
 */
export function clientCapabilitiesOf(
  sdk: ServerContext,
  options: Pick<SeedOptions, 'era' | 'server' | 'perRequestHandshake'>,
): ClientCapabilities | undefined {
  return capabilitiesFor(options, () => envelopeCapabilities(sdk));
}

function capabilitiesFor(
  options: Pick<SeedOptions, 'era' | 'server' | 'perRequestHandshake'>,
  envelope: () => ClientCapabilities | undefined,
): ClientCapabilities | undefined {
  if (options.era === 'envelope') return envelope();
  const { server } = options;
  const declared = options.perRequestHandshake ? undefined : server?.getClientCapabilities();
  // What the client declared, as far as the version the session negotiated at initialize can carry it.
  return declared && capabilitiesForVersion(declared, server?.getNegotiatedProtocolVersion());
}

/** The 2026-07-28 envelope as sent: `{}` when the client declared nothing. */
function envelopeCapabilities(sdk: ServerContext): ClientCapabilities | undefined {
  const envelope = sdk.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}
