// The Server Card (SEP-2127, the experimental server-card extension's v2 schema): what a client can learn before it
// connects. The card's own fields say who the server is and where and how to connect (name, version, description,
// the streamable-HTTP endpoint with its protocol versions and, under auth, the Authorization header it needs); what
// the schema has no field for (capabilities and extensions, the auth requirements, how many tools, resources and
// prompts) goes under `_meta["mcp-kiln/server"]`. It never lists tool schemas. Served at `<endpoint>/server-card`, the
// location the proposal reserves, and, on a server's root, at `/.well-known/mcp.json` and in an MCP Catalog at
// `/.well-known/mcp/catalog.json`.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppCatalog } from '../../../src/host/index.js';
import type { ServerCardConfig } from '../../../src/index.js';
import { endpointUrlOf } from '../edge/request-origin.js';
import { ENVELOPE_REVISION } from '../fast-path/sdk-envelope-binding.js';
import type { GetRoute } from '../landing-page/routes.js';

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json';
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
export const SERVER_CARD_META_KEY = 'mcp-kiln/server';

export interface ServerCardSource {
  readonly catalog: AppCatalog;
  readonly config: ServerCardConfig;
  /** The endpoint's path as routed (with any prefix of the instance). */
  readonly endpointPath: string;
  /** The endpoint's path on the instance the routes go on (without the instance's own prefix). */
  readonly routePath: string;
  /** Under auth: where the protected resource metadata is for this request, its authorization servers and scopes. */
  readonly protection: (request: FastifyRequest) => ServerCardProtection | undefined;
  /** Counts say how much each caller may see; with MCP_AUTH_HIDE_FORBIDDEN_TOOLS that differs, so they are left out. */
  readonly showCounts: boolean;
}

export interface ServerCardProtection {
  /** Undefined where no authorization server is named (jwt mode). */
  readonly resourceMetadata: string | undefined;
  readonly authorizationServers: readonly string[];
  readonly scopes: readonly string[];
}

/** The card as a client reaching `request`'s host sees it. */
export function serverCardFor(source: ServerCardSource, request: FastifyRequest) {
  const { catalog, config } = source;
  const protection = source.protection(request);
  const card = {
    $schema: SERVER_CARD_SCHEMA,
    name: config.name ?? derivedName(request.hostname, catalog.serverName),
    version: catalog.version,
    description: config.description ?? derivedDescription(catalog),
    ...(catalog.serverTitle ? { title: catalog.serverTitle.slice(0, 100) } : {}),
    remotes: [
      {
        type: 'streamable-http' as const,
        url: endpointUrlOf(request, source.endpointPath),
        supportedProtocolVersions: [ENVELOPE_REVISION, ...SUPPORTED_PROTOCOL_VERSIONS],
        ...(protection
          ? {
              headers: [
                {
                  name: 'Authorization',
                  description: 'Bearer access token from an authorization server the protected resource metadata names',
                  isRequired: true,
                  isSecret: true,
                },
              ],
            }
          : {}),
      },
    ],
    _meta: {
      [SERVER_CARD_META_KEY]: {
        capabilities: catalog.capabilities ?? {},
        auth: protection
          ? {
              required: true,
              ...(protection.resourceMetadata ? { resourceMetadata: protection.resourceMetadata } : {}),
              authorizationServers: protection.authorizationServers,
              ...(protection.scopes.length > 0 ? { scopes: protection.scopes } : {}),
            }
          : { required: false },
        ...(source.showCounts
          ? {
              counts: {
                tools: catalog.tools.filter((tool) => !tool.disabled).length,
                resources: catalog.resources.length,
                prompts: catalog.prompts.length,
              },
            }
          : {}),
      },
    },
  };
  return card;
}

/** Routes the card: at `<endpoint>/server-card` always; at the well-known paths when they are free on this server. */
export function serveServerCard(
  get: GetRoute,
  source: ServerCardSource,
  atRoot: boolean,
  taken: (path: string) => boolean,
): void {
  const send = (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'public, max-age=300')
      .type(wantsCardType(request) ? SERVER_CARD_MEDIA_TYPE : 'application/json')
      .send(serverCardFor(source, request));
  get(`${source.routePath}/server-card`, async (request, reply) => send(request, reply));
  const cardPath = `${source.endpointPath}/server-card`;
  if (!atRoot) return;
  // One server may mount several endpoints; the first to claim a well-known path keeps it.
  if (!taken('/.well-known/mcp.json')) get('/.well-known/mcp.json', async (request, reply) => send(request, reply));
  if (!taken('/.well-known/mcp/catalog.json')) {
    get('/.well-known/mcp/catalog.json', async (request, reply) => {
      const card = serverCardFor(source, request);
      const url = new URL(cardPath, endpointUrlOf(request, source.endpointPath)).href;
      return reply
        .header('access-control-allow-origin', '*')
        .header('cache-control', 'public, max-age=300')
        .type('application/json')
        .send({
          specVersion: 'draft',
          entries: [
            {
              identifier: `urn:air:${request.hostname}:${card.name.slice(card.name.indexOf('/') + 1)}`,
              displayName: card.title ?? catalogName(source.catalog),
              type: SERVER_CARD_MEDIA_TYPE,
              url,
            },
          ],
        });
    });
  }
}

function wantsCardType(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes(SERVER_CARD_MEDIA_TYPE);
}

function catalogName(catalog: AppCatalog): string {
  return catalog.serverTitle ?? catalog.serverName;
}

/** `<host reversed>/<server name>`: `mcp.example.com` serving `notes` is `com.example.mcp/notes`. */
function derivedName(hostname: string, serverName: string): string {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const namespace = /^[\d.]+$/.test(host) || host.includes(':') ? 'local' : host.split('.').reverse().join('.');
  const safeNamespace = namespace.replace(/[^a-z0-9.-]/g, '-') || 'local';
  const name = serverName.replace(/[^a-zA-Z0-9._-]/g, '-') || 'server';
  return `${safeNamespace}/${name}`.slice(0, 200);
}

/** The instructions' first sentence, or the server's name; within the card's 100 characters. */
function derivedDescription(catalog: AppCatalog): string {
  const sentence = catalog.instructions?.split(/(?<=\.)\s/)[0]?.trim();
  const text = sentence || `${catalogName(catalog)}, an MCP server`;
  return text.length <= 100 ? text : `${text.slice(0, 99)}…`;
}
