// What a tool can read of the HTTP request that carried its call (ctx.http): the headers, the caller's address and
// the URL as the client used it. Read-only, built on first read; absent over stdio. Behind a proxy the host trusts
// (MCP_HTTP_TRUST_PROXY, or the trustProxy of your own Fastify), the address and URL are the ones the proxy forwarded.
//
// Where the SDK dispatches a request it hands over a web Request rebuilt from the Node one, which carries no peer
// address: the host stamps the address and URL it read onto the Node request under two names of its own first
// (HTTP_FACT_HEADERS), and they are read back here, and left out of `headers`.

/** The HTTP facts of a request, as `ctx.http` shows them. */
export interface HttpRequestInfo {
  /**
   * The request's headers, names lower-cased; a repeated header has each value. Credentials (Authorization, Cookie,
   * Proxy-Authorization) are left out: the host verified the token, and `ctx.auth` says what it grants.
   */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  /** The caller's IP address: the socket's peer, or the client a trusted proxy names. */
  readonly remoteAddress: string | undefined;
  /** The URL the client requested: protocol, host and path with query (the forwarded ones behind a trusted proxy). */
  readonly url: string;
}

/** The names the host stamps its own reading under; anything a client sent under them is replaced first. */
export const HTTP_FACT_HEADERS = { address: 'x-mcp-kiln-caller-address', url: 'x-mcp-kiln-request-url' } as const;

/** Headers ctx.http never shows: the host's own stamps, and credentials no tool should be able to replay. */
const HIDDEN = new Set<string>([
  HTTP_FACT_HEADERS.address,
  HTTP_FACT_HEADERS.url,
  'authorization',
  'proxy-authorization',
  'cookie',
]);

type NodeHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** From Node's headers, with the host's stamped address and URL (session and direct paths read these). */
export function httpInfoFromNodeHeaders(raw: NodeHeaders): HttpRequestInfo {
  const headers: Record<string, string | readonly string[]> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || HIDDEN.has(name)) continue;
    headers[name] = Array.isArray(value) ? [...value] : value;
  }
  return {
    headers,
    remoteAddress: single(raw[HTTP_FACT_HEADERS.address]),
    url: single(raw[HTTP_FACT_HEADERS.url]) ?? '',
  };
}

/** From the web Request the SDK rebuilt from a stamped Node request. */
export function httpInfoFromWebRequest(request: Request): HttpRequestInfo {
  const raw: Record<string, string | string[]> = {};
  for (const [name, value] of request.headers) {
    const known = raw[name];
    raw[name] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
  }
  // The web Request joins repeated headers with ", " (set-cookie aside); its URL is rebuilt from Host.
  return { ...httpInfoFromNodeHeaders(raw), url: single(raw[HTTP_FACT_HEADERS.url]) ?? request.url };
}

function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}
