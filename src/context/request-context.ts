// The one canonical request shape. Closed by design: ad-hoc correlation data goes in `extra`, never new top-level keys.

/** Parsed authentication claims, present when the request was authenticated. */
export interface AuthContext {
  readonly clientId: string;
  readonly subject?: string;
  readonly scopes: readonly string[];
  readonly tenantId?: string;
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
  return { ...context, extra: { ...context.extra, ...extra } };
}

/** The canonical field names; an `extra` or log-data key reusing one never replaces the context's value. */
export const CANONICAL_CONTEXT_FIELDS = [
  'requestId',
  'timestamp',
  'tenantId',
  'sessionId',
  'traceId',
  'spanId',
  'auth',
  'operation',
  'extra',
] as const;

/** The identity fields of a context as a plain object, for log bindings. */
export function canonicalFields(context: RequestContext): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of CANONICAL_CONTEXT_FIELDS) {
    if (key === 'extra' || key === 'auth') continue;
    if (context[key] !== undefined) fields[key] = context[key];
  }
  if (context.auth) fields.clientId = context.auth.clientId;
  return fields;
}

const TOKEN_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A `XXXXX-XXXXX` request id for requests whose JSON-RPC id is not a string. */
export function generateRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  const chars = Array.from(bytes, (b) => TOKEN_ALPHABET[b % TOKEN_ALPHABET.length]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}
