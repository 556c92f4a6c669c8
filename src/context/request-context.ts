// The one canonical request shape. Closed by design: ad-hoc correlation data goes in `extra`, never new top-level keys.

/** Parsed authentication claims, present when the request was authenticated. Never the token itself. */
export interface AuthContext {
  /** The token's client (`client_id`, `azp` or `cid`); empty when it names none. */
  readonly clientId: string;
  /** The token's `sub`. */
  readonly subject?: string;
  /** The token's `scope` and `scp` together, plus every scope they imply under the configured hierarchy. */
  readonly scopes: readonly string[];
  /** The tenant the token's claim (or the configured fallback) names; absent when it names none. */
  readonly tenantId?: string;
  /** When the token expires, in seconds since the epoch. */
  readonly expiresAt?: number;
  /** The token claims the server chose to pass on (MCP_AUTH_CLAIMS). */
  readonly claims?: Readonly<Record<string, unknown>>;
}

export interface RequestContext {
  /** The client's JSON-RPC id when it is a string, otherwise a generated `XXXXX-XXXXX` token. */
  readonly requestId: string;
  /** ISO 8601 request start time. */
  readonly timestamp: string;
  /** `'default'` on stdio and unauthenticated HTTP; the token's tenant otherwise. */
  readonly tenantId?: string;
  readonly sessionId?: string;
  readonly traceId?: string;
  readonly spanId?: string;
  readonly auth?: AuthContext;
  readonly operation?: string;
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A copy of `context` whose `extra` bag is merged with `extra` (the parent's bag is kept, not replaced). */
export function withExtra<C extends RequestContext>(context: C, extra: Readonly<Record<string, unknown>>): C {
  const merged = { ...context.extra, ...extra };
  // A handler's Context is a class whose accessors (`state`) a spread copy would lose; it derives itself.
  const derivable = context as C & { withExtra?: (extra: Readonly<Record<string, unknown>>) => C };
  return typeof derivable.withExtra === 'function' ? derivable.withExtra(merged) : { ...context, extra: merged };
}

const TOKEN_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * A `XXXXX-XXXXX` request id for requests whose JSON-RPC id is not a string. It only correlates a request's log lines
 * and errors (a string id is taken as the client sent it), so Math.random serves: no crypto module loads for it on a
 * server's first call.
 */
export function generateRequestId(): string {
  let id = '';
  for (let i = 0; i < 10; i++) {
    if (i === 5) id += '-';
    id += TOKEN_ALPHABET[Math.floor(Math.random() * TOKEN_ALPHABET.length)];
  }
  return id;
}
