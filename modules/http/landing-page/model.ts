// What the landing page shows: the app's catalogue and the endpoint URL. The page renderer needs no access to Kiln
// internals, and the model is what a test asserts against.
import type { AppCatalog, CatalogPrompt, CatalogResource, CatalogTool } from '../../../src/host/index.js';

export type LandingTool = CatalogTool;
export type LandingResource = CatalogResource;
export type LandingPrompt = CatalogPrompt;

/** How the endpoint is protected, when it requires a bearer token. */
export interface LandingProtection {
  readonly authorizationServers: readonly string[];
  /** The protected resource metadata (RFC 9728) clients discover the authorization server from. */
  /** Where clients learn how to get a token; undefined where no authorization server is named (jwt mode). */
  readonly metadataUrl: string | undefined;
}

export interface LandingPageModel extends AppCatalog {
  readonly endpointUrl: string;
  /** Present when every request needs a bearer token. */
  readonly protection?: LandingProtection;
  /** Offer the playground (MCP_PLAYGROUND): forms that call the endpoint from the page. */
  readonly playground?: boolean;
  /** Where the page loads the playground's script from (`/playground.js` by default). */
  readonly playgroundScriptPath?: string;
}

export function landingPageModel(
  catalog: AppCatalog,
  endpointUrl: string,
  protection?: LandingProtection,
  options: { readonly playground?: boolean; readonly playgroundScriptPath?: string } = {},
): LandingPageModel {
  return {
    ...catalog,
    endpointUrl,
    ...(protection ? { protection } : {}),
    ...(options.playground ? { playground: true } : {}),
    ...(options.playground && options.playgroundScriptPath
      ? { playgroundScriptPath: options.playgroundScriptPath }
      : {}),
  };
}
