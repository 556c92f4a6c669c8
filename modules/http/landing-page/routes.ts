// The pages for people: the landing page (at the endpoint for a browser's visit, and at any path the host adds, such
// as `/` on Kiln's own server) and, with the playground on, its script. The page names the endpoint URL as the
// visitor reached it, so it is rendered once per URL (a handful: the names a server is reached by) and sent with its
// Content-Security-Policy. The page's code, styles and playground script (about 100 KB, most of it text) load on the
// first visit: an MCP server mostly serves clients, and every byte of a module loaded at boot stays in memory.
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { AppCatalog } from '../../../src/host/index.js';
import { endpointUrlOf } from '../edge/request-origin.js';
import { type LandingProtection, landingPageModel } from './model.js';

export interface LandingPageSource {
  readonly catalog: AppCatalog;
  /** The endpoint's path as routed (with any prefix). */
  readonly endpoint: string;
  readonly protection: (request: FastifyRequest) => LandingProtection | undefined;
  /** MCP_PLAYGROUND. */
  readonly playground: boolean;
  readonly scriptPath: string;
}

export interface LandingPages {
  /** Answers `request` with the page. */
  sendPage(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  /** Serves the page at `path` too, through `get`. */
  route(get: GetRoute, path: string): void;
  /** Serves the playground script through `get`, when the playground is on. */
  routeScript(get: GetRoute): void;
}

/** Adds a GET route (with the host's checks for routes outside the endpoint's own context). */
export type GetRoute = (path: string, handler: RouteHandlerMethod) => void;

interface Page {
  readonly html: string;
  readonly policy: string;
}

/** Rendered pages kept, by endpoint URL: enough for the names one server is reached by. */
const PAGES_KEPT = 8;

export function landingPages(source: LandingPageSource): LandingPages {
  const pages = new Map<string, Promise<Page>>();

  async function render(endpointUrl: string, protection: LandingProtection | undefined): Promise<Page> {
    const { landingPagePolicy, renderLandingPage } = await import('./landing-page.js');
    const model = landingPageModel(source.catalog, endpointUrl, protection, {
      playground: source.playground,
      playgroundScriptPath: source.scriptPath,
    });
    return { html: renderLandingPage(model), policy: landingPagePolicy(model) };
  }

  function pageFor(request: FastifyRequest): Promise<Page> {
    const endpointUrl = endpointUrlOf(request, source.endpoint);
    let page = pages.get(endpointUrl);
    if (page === undefined) {
      if (pages.size >= PAGES_KEPT) pages.delete(pages.keys().next().value as string);
      // One render per URL for every visit, concurrent first ones included; a failed one is tried again next time.
      page = render(endpointUrl, source.protection(request)).catch((error: unknown) => {
        pages.delete(endpointUrl);
        throw error;
      });
      pages.set(endpointUrl, page);
    }
    return page;
  }

  async function sendPage(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const { html, policy } = await pageFor(request);
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', policy)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(html);
  }

  return {
    sendPage,
    route: (get, path) => get(path, sendPage),
    routeScript(get) {
      if (!source.playground) return;
      get(source.scriptPath, async (_request, reply) => {
        const { PLAYGROUND_SCRIPT } = await import('./playground-script.js');
        return reply
          .type('text/javascript; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('x-content-type-options', 'nosniff')
          .send(PLAYGROUND_SCRIPT);
      });
    },
  };
}
