// MCP Apps (the io.modelcontextprotocol/ui extension): `@Module({ uiResources: [...] })` lists the `ui://` views a
// module serves, written with `uiResource(uri, { html | file, csp, permissions })`; a tool names its view with
// `@Tool(name, { ui: 'ui://…' })`. These only record; the app compiler reads every file once at boot.
import { fileURLToPath } from 'node:url';
import type {
  McpUiResourceCsp,
  McpUiResourceMeta,
  McpUiResourcePermissions,
  McpUiToolVisibility,
} from '@modelcontextprotocol/ext-apps';

export type { McpUiResourceCsp, McpUiResourceMeta, McpUiResourcePermissions, McpUiToolVisibility };

/** Where a tool's view is and who may call the tool: the model, the view (`'app'`), or both (the default). */
export interface ToolUiOptions {
  /** The `ui://` URI of a view some module serves with `uiResource(...)`. */
  readonly resourceUri: string;
  /** `['app']` hides the tool from the model: only its view calls it. Default: `['model', 'app']`. */
  readonly visibility?: readonly McpUiToolVisibility[];
}

interface UiResourceFields {
  /** The resource name, shown in resources/list. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The origins the view may reach; omitted, a host applies the extension's restrictive default (no network). */
  readonly csp?: McpUiResourceCsp;
  /** Browser features the view asks for (camera, microphone, geolocation, clipboardWrite); hosts may refuse. */
  readonly permissions?: McpUiResourcePermissions;
  /** A dedicated sandbox origin for the view, in the format the host documents. */
  readonly domain?: string;
  /** Whether the view wants the host to draw a border and background around it. */
  readonly prefersBorder?: boolean;
}

/** The view's HTML, written in code or read from a file once at boot. */
export type UiResourceOptions = UiResourceFields &
  ({ readonly html: string; readonly file?: never } | { readonly file: string | URL; readonly html?: never });

export interface UiResourceDeclaration extends UiResourceFields {
  readonly uri: string;
  readonly html?: string;
  /** An absolute path, read at boot. */
  readonly file?: string;
}

/** A view served at `uri` (`ui://…`) as `text/html;profile=mcp-app`, with its CSP and permissions metadata. */
export function uiResource(uri: string, options: UiResourceOptions): UiResourceDeclaration {
  const { file, ...rest } = options;
  return {
    uri,
    ...rest,
    ...(file !== undefined ? { file: typeof file === 'string' ? file : fileURLToPath(file) } : {}),
  };
}
