// A tool's compiled MCP Apps view, as the compiled tool carries it (compile-tool-ui.ts makes it).
import type { McpUiToolVisibility } from '../../../decorators/ui-resource.js';

export interface CompiledToolUi {
  readonly resourceUri: string;
  readonly visibility: readonly McpUiToolVisibility[] | undefined;
  /** `visibility: ['app']`: only the view calls the tool, so a client that renders no views is not shown it. */
  readonly appOnly: boolean;
}
