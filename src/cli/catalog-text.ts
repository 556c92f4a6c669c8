// The catalogue as text, in the landing page's order and wording: tools (parameters, output fields, disabled ones
// marked with their reason), resources (URI or template, MIME type), prompts (arguments).
import type { AppCatalog, CatalogPrompt, CatalogResource, CatalogTool } from '../app/app-catalog.js';
import { type SchemaRow, schemaRows } from './schema-outline.js';

const INDENT = '  ';

export function catalogText(catalog: AppCatalog): string {
  const heading = `${catalog.serverName} ${catalog.version}${catalog.serverTitle ? ` (${catalog.serverTitle})` : ''}`;
  const sections = [
    [heading, ...(catalog.instructions ? [indent(catalog.instructions, 1)] : [])].join('\n'),
    section('Tools', catalog.tools.map(toolText)),
    section('Resources', catalog.resources.map(resourceText)),
    section('Prompts', catalog.prompts.map(promptText)),
  ];
  return `${sections.join('\n\n')}\n`;
}

function section(name: string, cards: readonly string[]): string {
  return [`${name} (${cards.length})`, ...(cards.length > 0 ? cards : [`${INDENT}None.`])].join('\n\n');
}

function toolText(tool: CatalogTool): string {
  const { disabled } = tool;
  const badge = disabled ? `  [disabled${disabled.since ? ` since ${disabled.since}` : ''}]` : '';
  const lines = [`${INDENT}${tool.name}${tool.title ? ` — ${tool.title}` : ''}${badge}`];
  if (tool.description) lines.push(indent(tool.description, 2));
  if (tool.ui) {
    const appOnly = tool.ui.visibility && !tool.ui.visibility.includes('model');
    lines.push(indent(`View: ${tool.ui.resourceUri}${appOnly ? ' (only the view calls it)' : ''}`, 2));
  }
  if (disabled) {
    lines.push(indent(`Not callable. ${disabled.reason}`, 2));
    if (disabled.hint) lines.push(indent(disabled.hint, 3));
  }
  const parameters = schemaRows(tool.inputSchema);
  lines.push(indent('Parameters:', 2), parameters.length > 0 ? rowsTable(parameters) : indent('None.', 3));
  if (tool.outputSchema) lines.push(...outputText(tool.outputSchema));
  else lines.push(indent('Output: content only (no structuredContent).', 2));
  return lines.join('\n');
}

/**
 * The advertised output schema is widened for failures: every field optional, plus the `error` envelope. Shown as
 * the fields a success carries, then one line for the envelope with the reasons the tool declares.
 */
function outputText(outputSchema: Record<string, unknown>): string[] {
  const rows = schemaRows(outputSchema);
  const success = rows.filter((row) => row.path !== 'error' && !row.path.startsWith('error.'));
  const reason = rows.find((row) => row.path === 'error.data.reason');
  const lines = [indent('Output:', 2), success.length > 0 ? rowsTable(success, false) : indent('None.', 3)];
  if (rows.length > success.length) {
    lines.push(
      indent(`On failure: error { code, message, data }${reason?.description ? `. ${reason.description}` : ''}`, 2),
    );
  }
  return lines;
}

function resourceText(resource: CatalogResource): string {
  const kind = resource.isTemplate ? 'template' : 'fixed URI';
  const lines = [
    `${INDENT}${resource.name}${resource.title ? ` — ${resource.title}` : ''}`,
    indent(`${resource.uri}  (${kind}${resource.mimeType ? `, ${resource.mimeType}` : ''})`, 2),
  ];
  if (resource.description) lines.push(indent(resource.description, 2));
  return lines.join('\n');
}

function promptText(prompt: CatalogPrompt): string {
  const lines = [`${INDENT}${prompt.name}${prompt.title ? ` — ${prompt.title}` : ''}`];
  if (prompt.description) lines.push(indent(prompt.description, 2));
  // Prompt arguments are strings on the wire (MCP prompts/get).
  const rows = prompt.arguments.map((argument) => ({
    path: argument.name,
    type: 'string',
    required: argument.required,
    ...(argument.description ? { description: argument.description } : {}),
    facts: [],
  }));
  lines.push(indent('Arguments:', 2), rows.length > 0 ? rowsTable(rows) : indent('None.', 3));
  return lines.join('\n');
}

/** Rows as aligned columns: path, type, required or optional (when it says something), description and facts. */
function rowsTable(rows: readonly SchemaRow[], showRequired = true): string {
  const cells = rows.map((row) => [
    row.path,
    row.type,
    ...(showRequired ? [row.required ? 'required' : 'optional'] : []),
    [row.description, row.facts.length > 0 ? `(${row.facts.join(', ')})` : undefined].filter(Boolean).join(' '),
  ]);
  const aligned = (cells[0]?.length ?? 1) - 1;
  const widths = cells[0]?.map((_, column) => Math.max(...cells.map((cell) => (cell[column] ?? '').length))) ?? [];
  return cells
    .map((cell) => {
      const text = cell.map((value, column) => (column < aligned ? value.padEnd(widths[column] ?? 0) : value));
      return indent(text.join('  ').trimEnd(), 3);
    })
    .join('\n');
}

function indent(text: string, level: number): string {
  const pad = INDENT.repeat(level);
  return text
    .split('\n')
    .map((line) => (line ? `${pad}${line}` : line))
    .join('\n');
}
