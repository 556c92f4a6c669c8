// What the landing page shows, derived once at boot from the compiled runtime: the page renderer needs no access
// to Kiln internals, and the model is what a test asserts against.
import type { KilnRuntime } from '../../src/app/app-runtime.js';

export interface LandingTool {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly disabled?: { readonly reason: string; readonly hint?: string; readonly since?: string };
}

export interface LandingResource {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** A fixed URI or a URI template. */
  readonly uri: string;
  readonly isTemplate: boolean;
  readonly mimeType?: string;
}

export interface LandingPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly { readonly name: string; readonly description?: string; readonly required: boolean }[];
}

export interface LandingPageModel {
  readonly serverName: string;
  readonly serverTitle?: string;
  readonly version: string;
  readonly instructions?: string;
  readonly endpointUrl: string;
  readonly tools: readonly LandingTool[];
  readonly resources: readonly LandingResource[];
  readonly prompts: readonly LandingPrompt[];
}

export function landingPageModel(runtime: KilnRuntime, endpointUrl: string): LandingPageModel {
  const { serverInfo } = runtime;
  return {
    serverName: serverInfo.name,
    ...(serverInfo.title ? { serverTitle: serverInfo.title } : {}),
    version: serverInfo.version,
    ...(runtime.instructions ? { instructions: runtime.instructions } : {}),
    endpointUrl,
    tools: runtime.manifestTools.map((tool) => ({
      name: tool.name,
      ...(tool.definition.title ? { title: tool.definition.title } : {}),
      description: tool.definition.description ?? '',
      inputSchema: tool.definition.inputSchema as Record<string, unknown>,
      ...(tool.disabled ? { disabled: tool.disabled } : {}),
    })),
    resources: runtime.resources.map((resource) => {
      const listing = resource.listing ?? resource.templateListing;
      return {
        name: resource.name,
        ...(listing?.title ? { title: listing.title } : {}),
        ...(listing?.description ? { description: listing.description } : {}),
        uri: resource.uriTemplate,
        isTemplate: resource.template !== undefined,
        ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
      };
    }),
    prompts: [...runtime.prompts.values()].map((prompt) => ({
      name: prompt.name,
      ...(prompt.listing.title ? { title: prompt.listing.title } : {}),
      description: prompt.listing.description,
      arguments: (prompt.listing.arguments ?? []).map((arg) => ({
        name: arg.name,
        ...(arg.description ? { description: arg.description } : {}),
        required: arg.required ?? false,
      })),
    })),
  };
}
