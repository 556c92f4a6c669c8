// RFC 9728 protected resource metadata, served only when auth is on: at `/.well-known/oauth-protected-resource` and
// at the form with the endpoint's path appended (`.../oauth-protected-resource/mcp`), the one 401 and 403
// challenges point at. It names this server's resource URI (the configured one, or the endpoint's URL as the client
// reached it), its authorization servers and the scopes its @Scopes decorators use, so a client can find where to get
// a token, and for which scopes.
import type { BearerAuth } from '../auth/index.js';
import { endpointUrlOf } from './edge/request-origin.js';
import type { GetRoute } from './landing-page/routes.js';

export const METADATA_PATH = '/.well-known/oauth-protected-resource';

export interface ResourceMetadataSource {
  readonly auth: BearerAuth;
  /** The endpoint's path as routed on the instance (with any prefix). */
  readonly endpointPath: string;
  readonly scopes: readonly string[];
  readonly resourceName: string;
}

/** Where the metadata of `resource` lives: the well-known prefix inserted before its path (RFC 9728 §3.1). */
export function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}${METADATA_PATH}${path}`;
}

/** Serves the document through `get`, which routes at the server's root (mountEndpoint checks that). */
export function serveResourceMetadata(get: GetRoute, source: ResourceMetadataSource): void {
  const paths = new Set([METADATA_PATH, `${METADATA_PATH}${source.endpointPath}`]);
  // A resource URI whose path differs from the endpoint's (a proxy maps one onto the other) is served too.
  if (source.auth.resource) paths.add(new URL(metadataUrlOf(source.auth.resource)).pathname);
  for (const path of paths) {
    get(path, async (request, reply) =>
      reply.type('application/json').send({
        resource: source.auth.resource ?? endpointUrlOf(request, source.endpointPath),
        authorization_servers: source.auth.authorizationServers,
        ...(source.scopes.length > 0 ? { scopes_supported: source.scopes } : {}),
        bearer_methods_supported: ['header'],
        resource_name: source.resourceName,
      }),
    );
  }
}
