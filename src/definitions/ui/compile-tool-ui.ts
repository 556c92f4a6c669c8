// A tool's MCP Apps view (`@Tool(name, { ui })`), checked at boot and turned into the `_meta` hosts read: `ui` with
// `resourceUri` and `visibility`, plus the flat `ui/resourceUri` key older hosts still look for. Whether the URI is
// served is checked later, against every module's `uiResources`.
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { ToolOptions } from '../../../decorators/tool.js';
import type { McpUiToolVisibility } from '../../../decorators/ui-resource.js';
import type { CompiledTool } from '../compiled-tool.js';
import type { LintFindings } from '../lint/tool-lint.js';
import type { CompiledToolUi } from './compiled-tool-ui.js';

export const UI_SCHEME = 'ui://';
const VISIBILITIES: readonly McpUiToolVisibility[] = ['model', 'app'];

export type { CompiledToolUi } from './compiled-tool-ui.js';

/** The view a tool declares, or undefined when it declares none (or declares one wrongly: the error is recorded). */
export function compileToolUi(
  options: Pick<ToolOptions, 'ui' | '_meta'>,
  where: string,
  findings: LintFindings,
): CompiledToolUi | undefined {
  if (options._meta && ('ui' in options._meta || RESOURCE_URI_META_KEY in options._meta)) {
    findings.errors.push(
      `${where}: _meta.ui is written by Kiln; name the view with the ui option (ui: 'ui://…') instead.`,
    );
    return undefined;
  }
  if (options.ui === undefined) return undefined;
  const { resourceUri, visibility } =
    typeof options.ui === 'string' ? { resourceUri: options.ui, visibility: undefined } : options.ui;
  if (
    typeof resourceUri !== 'string' ||
    !resourceUri.startsWith(UI_SCHEME) ||
    resourceUri.length === UI_SCHEME.length
  ) {
    findings.errors.push(`${where}: ui names ${JSON.stringify(resourceUri)}; a view's URI starts with ui://.`);
    return undefined;
  }
  if (visibility !== undefined) {
    const unknown = visibility.filter((entry) => !VISIBILITIES.includes(entry));
    if (visibility.length === 0 || unknown.length > 0) {
      findings.errors.push(
        `${where}: ui.visibility must list 'model', 'app' or both (got ${JSON.stringify(visibility)}).`,
      );
      return undefined;
    }
  }
  return {
    resourceUri,
    visibility: visibility ? [...new Set(visibility)] : undefined,
    appOnly: visibility !== undefined && !visibility.includes('model'),
  };
}

/** The tool's `_meta` with its view: what a client that declared the extension is shown. */
export function toolUiMeta(ui: CompiledToolUi): Record<string, unknown> {
  return {
    ui: { resourceUri: ui.resourceUri, ...(ui.visibility ? { visibility: ui.visibility } : {}) },
    [RESOURCE_URI_META_KEY]: ui.resourceUri,
  };
}

/** The tools as a client that renders no views sees them: no view metadata, and no tool only a view may call. */
export function textToolDefinitions(tools: readonly CompiledTool[]): CompiledTool['definition'][] {
  return tools.flatMap((tool) => {
    if (!tool.ui) return [tool.definition];
    if (tool.ui.appOnly) return [];
    const { _meta: meta, ...definition } = tool.definition;
    const { ui: _ui, [RESOURCE_URI_META_KEY]: _legacy, ...rest } = meta ?? {};
    return [Object.freeze(Object.keys(rest).length > 0 ? { ...definition, _meta: rest } : definition)];
  });
}
