// Everything the fast path relies on that the SDK does not promise as public API, in one file and pinned by
// test/http/fast-path-guards.test.ts: how a long-lived Server is bound to the 2026-07-28 era, which HTTP status the
// SDK gives an error its dispatch ladder answers, and which envelopes and headers its per-request entry accepts as is.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PerRequestHTTPServerTransport,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  type Server,
} from '@modelcontextprotocol/server';

export const MODERN_REVISION = '2026-07-28';

type Classification = ConstructorParameters<typeof PerRequestHTTPServerTransport>[0]['classification'];

/** What the SDK's edge classifier says of a well-formed 2026-07-28 message; the protocol layer checks it per message. */
export const MODERN_CLASSIFICATION: Classification = Object.freeze({ era: 'modern', revision: MODERN_REVISION });

/**
 * `Server.connect` binds a server to the era of a PerRequestHTTPServerTransport's classification (it recognises the
 * transport by `instanceof`), which is how the SDK's own entry marks its per-request servers modern. A transport
 * that extends it gets a long-lived server bound the same way, with no private setter. Subclasses replace every
 * member they serve with (start, send, close); the base class's own single-exchange state is never used.
 */
export abstract class ModernBoundTransport extends PerRequestHTTPServerTransport {
  constructor() {
    super({ classification: MODERN_CLASSIFICATION, responseMode: 'auto' });
  }
}

/** Fails at boot, not per request, when the SDK stopped binding servers the way ModernBoundTransport relies on. */
export function assertModernBound(server: Server): void {
  const bound = server.getNegotiatedProtocolVersion();
  if (bound !== MODERN_REVISION) {
    throw new Error(
      `The HTTP fast path expected its server bound to ${MODERN_REVISION} but it is bound to ${bound ?? 'nothing'}: ` +
        'the SDK changed how it binds servers; set MCP_HTTP_FAST_PATH=off and report it.',
    );
  }
}

/**
 * The SDK's LADDER_ERROR_HTTP_STATUS (not exported): an error sent while the message is being delivered (before any
 * handler runs) is a ladder rejection and gets its own status; a missing client capability always does.
 */
const LADDER_STATUS: Readonly<Record<number, number>> = {
  [ProtocolErrorCode.ParseError]: 400,
  [ProtocolErrorCode.InvalidRequest]: 400,
  [ProtocolErrorCode.MethodNotFound]: 404,
  [ProtocolErrorCode.UnsupportedProtocolVersion]: 400,
  [ProtocolErrorCode.MissingRequiredClientCapability]: 400,
  // HEADER_MISMATCH_ERROR_CODE (SEP-2243), not exported either.
  [-32020]: 400,
};

/** The HTTP status of a JSON-RPC error response, as the SDK's per-request transport chooses it. */
export function errorHttpStatus(code: number, inDispatchWindow: boolean): number {
  if (!inDispatchWindow && code !== ProtocolErrorCode.MissingRequiredClientCapability) return 200;
  return LADDER_STATUS[code] ?? 200;
}

/** The envelope keys the fast path lets through; a request with any other `_meta` key takes the SDK path. */
export const ENVELOPE_KEYS: ReadonlySet<string> = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  'progressToken',
]);

/**
 * The body field each method's Mcp-Name header must equal (SEP-2243; the SDK's validateStandardRequestHeaders is not
 * exported). Methods not listed carry no Mcp-Name.
 */
export const MCP_NAME_SOURCE: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/**
 * Methods whose every answer comes from the connected server's dispatch (no entry-level work such as the listen
 * router, server/discover's install, or scope challenges of an McpServer) and that need no client capability.
 */
export const SERVER_DISPATCHED_METHODS: ReadonlySet<string> = new Set([
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);
