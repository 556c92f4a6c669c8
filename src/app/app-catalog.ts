// What an app serves, described for people and tools (the landing page, `kiln inspect`): derived from the compiled
// definitions, with no access to Kiln internals needed by whoever renders it.
import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type { ScopeRequirement } from '../../decorators/scopes.js';
import type { AppRuntime } from './app-runtime.js';

export interface CatalogTool {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  /** The @Enrichment fields merged into structuredContent, so a viewer can show them apart from the result. */
  readonly enrichmentKeys?: readonly string[];
  readonly disabled?: { readonly reason: string; readonly hint?: string; readonly since?: string };
  /** The @Scopes a caller's token must carry to call it. */
  readonly scopes?: ScopeRequirement;
  /** Its MCP Apps view, and who may call it (`['app']`: only the view); absent for tools without one. */
  readonly ui?: { readonly resourceUri: string; readonly visibility?: readonly ('model' | 'app')[] };
  /** Whether it runs as a task (the Tasks extension) for clients that declare it; absent when it never does. */
  readonly task?: 'optional' | 'required';
}

export interface CatalogResource {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** A fixed URI or a URI template. */
  readonly uri: string;
  readonly isTemplate: boolean;
  readonly mimeType?: string;
  /** The @Scopes a caller's token must carry to read it. */
  readonly scopes?: ScopeRequirement;
}

export interface CatalogPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly { readonly name: string; readonly description?: string; readonly required: boolean }[];
  /** The @Scopes a caller's token must carry to get it. */
  readonly scopes?: ScopeRequirement;
}

export interface AppCatalog {
  readonly serverName: string;
  readonly serverTitle?: string;
  readonly version: string;
  readonly instructions?: string;
  /** What initialize and server/discover advertise (extensions included). */
  readonly capabilities?: ServerCapabilities;
  readonly tools: readonly CatalogTool[];
  readonly resources: readonly CatalogResource[];
  readonly prompts: readonly CatalogPrompt[];
  /** Every scope a @Scopes decorator names, sorted (the metadata's `scopes_supported`); absent when none does. */
  readonly scopes?: readonly string[];
}

export function describeApp(runtime: AppRuntime): AppCatalog {
  const { serverInfo } = runtime;
  const definitions = [...runtime.manifestTools, ...runtime.resources, ...runtime.prompts.values()];
  const allScopes = [...new Set(definitions.flatMap((definition) => definition.scopes?.scopes ?? []))].sort();
  const scoped = <T extends { scopes: ScopeRequirement | undefined }>(d: T) => (d.scopes ? { scopes: d.scopes } : {});
  return {
    serverName: serverInfo.name,
    ...(serverInfo.title ? { serverTitle: serverInfo.title } : {}),
    version: serverInfo.version,
    ...(runtime.instructions ? { instructions: runtime.instructions } : {}),
    capabilities: runtime.capabilities,
    tools: runtime.manifestTools.map((tool) => ({
      name: tool.name,
      ...(tool.definition.title ? { title: tool.definition.title } : {}),
      description: tool.definition.description ?? '',
      inputSchema: tool.definition.inputSchema as Record<string, unknown>,
      ...(tool.definition.outputSchema
        ? { outputSchema: tool.definition.outputSchema as Record<string, unknown> }
        : {}),
      ...(tool.enrichmentKeys.length > 0 ? { enrichmentKeys: tool.enrichmentKeys } : {}),
      ...(tool.disabled ? { disabled: tool.disabled } : {}),
      ...scoped(tool),
      ...(tool.ui
        ? {
            ui: { resourceUri: tool.ui.resourceUri, ...(tool.ui.visibility ? { visibility: tool.ui.visibility } : {}) },
          }
        : {}),
      ...(tool.task ? { task: tool.task.support } : {}),
    })),
    resources: [
      ...runtime.resources.map((resource) => {
        const listing = resource.listing ?? resource.templateListing;
        return {
          name: resource.name,
          ...(listing?.title ? { title: listing.title } : {}),
          ...(listing?.description ? { description: listing.description } : {}),
          uri: resource.uriTemplate,
          isTemplate: resource.template !== undefined,
          ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
          ...scoped(resource),
        };
      }),
      // Each MCP Apps view, as resources/list shows it.
      ...(runtime.uiResources?.listing ?? []).map((view) => ({
        name: view.name,
        ...(view.title ? { title: view.title } : {}),
        ...(view.description ? { description: view.description } : {}),
        uri: view.uri,
        isTemplate: false,
        ...(view.mimeType ? { mimeType: view.mimeType } : {}),
      })),
      // Each skill's SKILL.md (the Skills extension), as resources/list shows it.
      ...(runtime.skills?.listing ?? []).map((skill) => ({
        name: skill.name,
        ...(skill.description ? { description: skill.description } : {}),
        uri: skill.uri,
        isTemplate: false,
        mimeType: 'text/markdown',
      })),
    ],
    prompts: [...runtime.prompts.values()].map((prompt) => ({
      name: prompt.name,
      ...(prompt.listing.title ? { title: prompt.listing.title } : {}),
      description: prompt.listing.description,
      arguments: (prompt.listing.arguments ?? []).map((arg) => ({
        name: arg.name,
        ...(arg.description ? { description: arg.description } : {}),
        required: arg.required ?? false,
      })),
      ...scoped(prompt),
    })),
    ...(allScopes.length > 0 ? { scopes: allScopes } : {}),
  };
}
