// A real OpenID provider (oidc-provider, the certified one for Node) on loopback for the OAuth end-to-end tests: dynamic
// client registration, authorization code with PKCE, resource indicators (RFC 8707) issuing JWT access tokens whose
// audience is the resource, refresh tokens, client credentials, introspection and revocation. The interactive step
// (login and consent) is answered by `browse`, which plays the user's browser: it follows the redirects, carries the
// provider's cookies, logs in as the given account and grants what was asked for (or less, when told to).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';

export interface OidcProvider {
  /** The issuer: `http://127.0.0.1:PORT`. */
  readonly issuer: string;
  readonly provider: Provider;
  /**
   * Plays the browser from `authorizationUrl` to the client's redirect: logs in as `account` and grants the scopes
   * requested (minus `withhold`). Returns the redirect's query (`code`, `state`, or an `error`).
   */
  browse(authorizationUrl: URL, options?: { account?: string; withhold?: readonly string[] }): Promise<URLSearchParams>;
  /** How many requests reached `path` (such as `/token/introspection`). */
  requests(path: string): number;
  close(): Promise<void>;
}

export interface OidcProviderOptions {
  /** Resources (RFC 8707 indicators) the provider issues tokens for, with the scopes each offers and its format. */
  readonly resources: Readonly<Record<string, { scopes: string; format?: 'jwt' | 'opaque' }>>;
  /** The tenant claim (`tid`) every access token carries. */
  readonly tenant?: string;
  /** Clients registered up front (for client credentials and introspection); others register dynamically. */
  readonly clients?: readonly { clientId: string; clientSecret: string; grantTypes: string[] }[];
}

export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcProvider> {
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-es256', alg: 'ES256', use: 'sig' };
  const resourceScopes = Object.values(options.resources).flatMap((resource) => resource.scopes.split(' '));
  const clients = (options.clients ?? []).map((client) => ({
    client_id: client.clientId,
    client_secret: client.clientSecret,
    grant_types: client.grantTypes,
    redirect_uris: [],
    response_types: [],
  }));

  const provider = new Provider(issuer, {
    clients,
    jwks: { keys: [signingKey] },
    // Its one key is an EC key, so everything it signs for clients is ES256.
    clientDefaults: {
      id_token_signed_response_alg: 'ES256',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
    scopes: ['openid', 'offline_access', ...new Set(resourceScopes)],
    pkce: { required: () => true },
    findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    extraTokenClaims: () => (options.tenant ? { tid: options.tenant } : {}),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      // Any registered client may introspect (the resource servers do, with credentials of their own).
      introspection: { enabled: true, allowedPolicy: async () => true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          const resource = options.resources[indicator];
          if (!resource) throw new errors.InvalidTarget(`Unknown resource ${indicator}`);
          return {
            scope: resource.scopes,
            audience: indicator,
            accessTokenTTL: 3600,
            accessTokenFormat: resource.format ?? 'jwt',
            ...(resource.format === 'opaque' ? {} : { jwt: { sign: { alg: 'ES256' } } }),
          };
        },
      },
    },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 3600, RefreshToken: 3600 },
  });
  // The test server runs on plain HTTP on loopback.
  provider.proxy = false;

  const handleProvider = provider.callback();
  const counts = new Map<string, number>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    if (req.url?.startsWith('/interaction/')) void finishInteraction(provider, req, res);
    else handleProvider(req, res);
  });

  /** What the next interaction answers: who logs in, and which requested scopes are withheld. */
  let pending: { account: string; withhold: readonly string[] } = { account: 'alice', withhold: [] };

  async function finishInteraction(p: Provider, req: IncomingMessage, res: ServerResponse) {
    try {
      const details = await p.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        await p.interactionFinished(
          req,
          res,
          { login: { accountId: pending.account } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const grant = details.grantId
        ? ((await p.Grant.find(details.grantId)) as InstanceType<Provider['Grant']>)
        : new p.Grant({
            accountId: details.session?.accountId as string,
            clientId: details.params.client_id as string,
          });
      // What the request asks for beyond what the account already granted: all of it, less what the user withholds.
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        const withheld = scopes.filter((scope) => pending.withhold.includes(scope));
        grant.addResourceScope(indicator, scopes.filter((scope) => !withheld.includes(scope)).join(' '));
        if (withheld.length > 0) grant.rejectResourceScope(indicator, withheld.join(' '));
      }
      const grantId = await grant.save();
      await p.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  }

  return {
    issuer,
    provider,
    async browse(authorizationUrl, browseOptions = {}) {
      pending = { account: browseOptions.account ?? 'alice', withhold: browseOptions.withhold ?? [] };
      const cookies = new Map<string, string>();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 20; hop++) {
        if (url.origin !== issuer) return url.searchParams;
        const response = await fetch(url, {
          redirect: 'manual',
          headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const separator = pair.indexOf('=');
          cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
        }
        const location = response.headers.get('location');
        await response.text();
        if (!location) throw new Error(`The provider answered ${response.status} without a redirect at ${url}`);
        url = new URL(location, url);
      }
      throw new Error('Too many redirects while authorizing');
    },
    requests: (path) => counts.get(path) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
