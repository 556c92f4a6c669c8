// The MCP Apps extension (io.modelcontextprotocol/ui) on the wire: whether a client renders views, which it declares
// in capabilities.extensions with the `text/html;profile=mcp-app` MIME type, and the views' resources/read answers.
import { getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities, ReadResourceResult } from '@modelcontextprotocol/server';
import type { CompiledUiResources } from '../definitions/ui/compile-ui-resources.js';

/**
 * Whether a client gets the tools' views: yes when it declared the extension with the view MIME type (its `mimeTypes`
 * is required, so a bare `{}` does not count), no when it declared capabilities without it (MCP Apps § Capability
 * Negotiation: check before showing UI-enabled tools). A 2025 request served per request (stateless HTTP) carries no
 * capabilities at all; it gets the views, since `_meta.ui` is inert to a client that renders none, while hiding it
 * would leave a host that does render them without.
 */
export function clientRendersApps(capabilities: ClientCapabilities | undefined): boolean {
  if (capabilities === undefined) return true;
  return getUiCapability(capabilities)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}

/** resources/read of a view; undefined when the URI names none, so the app's other resources are tried. */
export function readUiResource(views: CompiledUiResources | undefined, uri: string): ReadResourceResult | undefined {
  return views?.byUri.get(uri);
}
