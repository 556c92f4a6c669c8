// What the landing page hands the playground: the JSON block #pg-data, written by ../playground-section.ts from the
// app's catalogue (the tools that can be called, resources, templates and prompts) and read once as the script starts.
import type { JsonSchema } from './schema.js';

export interface ToolEntry {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  /** The @Enrichment fields of structuredContent, shown apart from the result. */
  readonly enrichmentKeys?: readonly string[];
}

export interface ResourceEntry {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** A fixed URI, or an RFC 6570 template when isTemplate. */
  readonly uri: string;
  readonly isTemplate: boolean;
  readonly mimeType?: string;
}

export interface PromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
}

export interface PromptEntry {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly PromptArgument[];
}

export interface PageData {
  /** The MCP endpoint's path, where every request goes. */
  readonly endpoint: string;
  readonly protocolVersion: string;
  readonly client: { readonly name: string; readonly version: string };
  /** Whether the endpoint needs a bearer token. */
  readonly auth: boolean;
  readonly tools: readonly ToolEntry[];
  readonly resources: readonly ResourceEntry[];
  readonly prompts: readonly PromptEntry[];
}

/** The server wrote the block for this script, so its shape is taken as given. */
export const DATA = JSON.parse(document.getElementById('pg-data')?.textContent ?? '') as PageData;
