// Parameter rows as an HTML table, and a tool's whole input schema (its properties, then any union variants).
// Nested rows show their parent path muted and are indented by depth, so `filter.tag` reads as part of `filter`.
import { escapeHtml } from './html.js';
import { type InputSchemaView, inputSchemaView, type JsonSchema, type ParameterRow } from './schema-rows.js';

// Indentation classes exist up to this depth in the stylesheet; deeper rows share the last one.
const MAX_INDENT = 4;

export function renderParameterTable(rows: readonly ParameterRow[], label: string): string {
  const body = rows.map(renderRow).join('');
  return `<div class="table-scroll" role="region" aria-label="${escapeHtml(label)}" tabindex="0"><table class="params">
<thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead>
<tbody>${body}</tbody></table></div>`;
}

function renderRow(row: ParameterRow): string {
  const depth = Math.min(row.path.length - 1, MAX_INDENT);
  const parent = row.path.slice(0, -1).join('.');
  const name = `${parent ? `<span class="path-parent">${escapeHtml(parent)}.</span>` : ''}${escapeHtml(row.path.at(-1) ?? '')}`;
  const requirement = row.required
    ? '<span class="req req--yes">required</span>'
    : '<span class="req req--no">optional</span>';
  const facts = row.facts
    .map(
      (fact) =>
        `<li><span class="fact-label">${escapeHtml(fact.label)}:</span> ${fact.values.map((value) => `<code>${escapeHtml(value)}</code>`).join(' ')}</li>`,
    )
    .join('');
  const description = row.description ? `<p>${escapeHtml(row.description)}</p>` : '';
  return `<tr class="depth-${depth}"><th scope="row"><code class="param-name">${name}</code></th><td><code class="type">${escapeHtml(row.type)}</code></td><td>${requirement}</td><td class="param-doc">${description}${facts ? `<ul class="facts">${facts}</ul>` : ''}</td></tr>`;
}

/** Parameters of one tool: a table of its properties, then one table per variant of a union (`oneOf`) input. */
export function renderInputSchema(schema: JsonSchema, toolName: string): string {
  const view: InputSchemaView = inputSchemaView(schema);
  if (view.rows.length === 0 && view.variants.length === 0) return '<p class="empty">Takes no parameters.</p>';
  const parts: string[] = [];
  if (view.rows.length > 0) parts.push(renderParameterTable(view.rows, `Parameters of ${toolName}`));
  if (view.variants.length > 0) {
    parts.push(
      `<p class="variants-intro">${view.rows.length > 0 ? 'Plus the fields of one' : 'Arguments match exactly one'} of ${view.variants.length} shapes:</p>`,
    );
    for (const variant of view.variants) {
      const rows =
        variant.rows.length > 0
          ? renderParameterTable(variant.rows, `${toolName}, ${variant.label}`)
          : '<p class="empty">No fields.</p>';
      const description = variant.description ? `<p class="variant-doc">${escapeHtml(variant.description)}</p>` : '';
      parts.push(
        `<div class="variant"><h5 class="variant-title">${escapeHtml(variant.label)}</h5>${description}${rows}</div>`,
      );
    }
  }
  return parts.join('\n');
}
