// What the landing page shows: the app's catalogue and the endpoint URL. The page renderer needs no access to Kiln
// internals, and the model is what a test asserts against.
import type { AppCatalog, CatalogPrompt, CatalogResource, CatalogTool } from '../../src/index.js';

export type LandingTool = CatalogTool;
export type LandingResource = CatalogResource;
export type LandingPrompt = CatalogPrompt;

export interface LandingPageModel extends AppCatalog {
  readonly endpointUrl: string;
}

export function landingPageModel(catalog: AppCatalog, endpointUrl: string): LandingPageModel {
  return { ...catalog, endpointUrl };
}
