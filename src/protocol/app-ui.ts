// The MCP Apps extension (io.modelcontextprotocol/ui) on the wire: whether a client renders views, which it declares
// in capabilities.extensions with the `text/html;profile=mcp-app` MIME type, and the views' resources/read answers.
import { getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities, ReadResourceResult } from '@modelcontextprotocol/server';
import type { CompiledUiResources } from '../definitions/compile-ui-resources.js';

/**
 * True when the client declared the extension with the view MIME type (its `mimeTypes` is required, so a bare `{}`
 * does not count). Servers should check before showing UI-enabled tools (MCP Apps § Capability Negotiation); a
 * client whose capabilities are unknown (2025 HTTP served per request) is taken not to render views.
 */
export function clientRendersApps(capabilities: ClientCapabilities | undefined): boolean {
  return getUiCapability(capabilities)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}

/** resources/read of a view; undefined when the URI names none, so the app's other resources are tried. */
export function readUiResource(views: CompiledUiResources | undefined, uri: string): ReadResourceResult | undefined {
  return views?.byUri.get(uri);
}
