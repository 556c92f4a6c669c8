// The routes for people: GET / (the landing page, rendered on the first visit, once the endpoint URL is known) and,
// with the playground on, GET /playground.js. The page is sent with its Content-Security-Policy. The page's code,
// styles and playground script (about 100 KB, most of it text) load on the first visit: an MCP server mostly serves
// clients, and every byte of a chunk loaded at boot stays in memory as the chunk's source.
import type { FastifyInstance } from 'fastify';
import type { AppCatalog } from '../../src/index.js';
import { PLAYGROUND_SCRIPT_PATH } from './landing-page/paths.js';
import { type LandingProtection, landingPageModel } from './landing-page-model.js';

export interface LandingPageSource {
  readonly catalog: AppCatalog;
  /** Known once the server listens. */
  readonly endpointUrl: () => string;
  readonly protection: () => LandingProtection | undefined;
  /** MCP_PLAYGROUND. */
  readonly playground: boolean;
}

interface Page {
  readonly html: string;
  readonly policy: string;
}

async function renderPage(source: LandingPageSource): Promise<Page> {
  const { landingPagePolicy, renderLandingPage } = await import('./landing-page.js');
  const model = landingPageModel(source.catalog, source.endpointUrl(), source.protection(), {
    playground: source.playground,
  });
  return { html: renderLandingPage(model), policy: landingPagePolicy(model) };
}

export function serveLandingPage(fastify: FastifyInstance, source: LandingPageSource): void {
  let page: Promise<Page> | undefined;
  fastify.get('/', async (_request, reply) => {
    // One render for every visit, concurrent first ones included; a failed one is tried again on the next visit.
    page ??= renderPage(source).catch((error: unknown) => {
      page = undefined;
      throw error;
    });
    const { html, policy } = await page;
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', policy)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(html);
  });
  if (!source.playground) return;
  fastify.get(PLAYGROUND_SCRIPT_PATH, async (_request, reply) => {
    const { PLAYGROUND_SCRIPT } = await import('./landing-page/playground-script.js');
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(PLAYGROUND_SCRIPT);
  });
}
