// The Tasks extension's identity and its capability rule: a client declares `io.modelcontextprotocol/tasks` under
// `extensions` in the capabilities it sends with each 2026-07-28 request, and only then may a call answer with a task
// or may tasks/* be used; otherwise the answer is -32021 naming the extension (SEP-2575 § Missing Required Capabilities).
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { kilnError } from '../errors/factories.js';
import { type McpError } from '../errors/mcp-error.js';

export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** Whether the request's capabilities declare the extension. */
export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  if (typeof extensions !== 'object' || extensions === null) return false;
  const declared = (extensions as Record<string, unknown>)[TASKS_EXTENSION_ID];
  return typeof declared === 'object' && declared !== null;
}

/** -32021 with `data.requiredCapabilities` shaped like the capabilities a client sends, as the extension asks. */
export function tasksCapabilityMissing(what: string): McpError {
  return kilnError(
    'task_capability_missing',
    `${what} needs the Tasks extension, which this request did not declare.`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
    },
  );
}
