// The routes for people: GET / (the landing page, rendered on the first visit, once the endpoint URL is known) and,
// with the playground on, GET /playground.js. The page is sent with its Content-Security-Policy.
import type { FastifyInstance } from 'fastify';
import type { AppCatalog } from '../../src/index.js';
import { PLAYGROUND_SCRIPT } from './landing-page/playground-script.js';
import { landingPagePolicy, PLAYGROUND_SCRIPT_PATH, renderLandingPage } from './landing-page.js';
import { type LandingProtection, landingPageModel } from './landing-page-model.js';

export interface LandingPageSource {
  readonly catalog: AppCatalog;
  /** Known once the server listens. */
  readonly endpointUrl: () => string;
  readonly protection: () => LandingProtection | undefined;
  /** MCP_PLAYGROUND. */
  readonly playground: boolean;
}

export function serveLandingPage(fastify: FastifyInstance, source: LandingPageSource): void {
  let page: { readonly html: string; readonly policy: string } | undefined;
  fastify.get('/', async (_request, reply) => {
    if (!page) {
      const model = landingPageModel(source.catalog, source.endpointUrl(), source.protection(), {
        playground: source.playground,
      });
      page = { html: renderLandingPage(model), policy: landingPagePolicy(model) };
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', page.policy)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(page.html);
  });
  if (!source.playground) return;
  fastify.get(PLAYGROUND_SCRIPT_PATH, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(PLAYGROUND_SCRIPT),
  );
}
