// The catalogue sections of the landing page: one card per tool, resource and prompt. Disabled tools keep their
// card, muted and badged, with the reason and hint their author gave, so a reader learns what replaced them.
import type { ScopeRequirement } from '../../../src/index.js';
import { anchorId, escapeHtml, versionLabel } from './html.js';
import type { LandingPrompt, LandingResource, LandingTool } from './model.js';
import { renderInputSchema, renderParameterTable } from './parameter-table.js';

export function renderCatalogSection(
  id: 'tools' | 'resources' | 'prompts',
  heading: string,
  intro: string,
  cards: readonly string[],
): string {
  const body = cards.length > 0 ? `<div class="cards">${cards.join('\n')}</div>` : `<p class="empty">None.</p>`;
  return `<section id="${id}" class="catalog" aria-labelledby="${id}-heading">
<h2 id="${id}-heading">${escapeHtml(heading)} <span class="count">${cards.length}</span></h2>
<p class="section-intro">${escapeHtml(intro)}</p>
${body}
</section>`;
}

export function renderToolCard(tool: LandingTool): string {
  const id = anchorId('tool', tool.name);
  const { disabled } = tool;
  const badges = disabled
    ? `<span class="badge badge--disabled">Disabled</span>${disabled.since ? ` <span class="badge badge--since" title="Disabled since version ${escapeHtml(versionLabel(disabled.since))}">since ${escapeHtml(versionLabel(disabled.since))}</span>` : ''}`
    : taskBadge(tool.task);
  const notice = disabled
    ? `<div class="disabled-note" role="note"><p><strong>Not callable.</strong> ${escapeHtml(disabled.reason)}</p>${disabled.hint ? `<pre class="hint"><code>${escapeHtml(disabled.hint)}</code></pre>` : ''}</div>`
    : '';
  return `<article id="${id}" class="card tool${disabled ? ' tool--disabled' : ''}" aria-labelledby="${id}-name"${disabled ? ' data-disabled="true"' : ''}>
${cardHead(id, tool.name, tool.title, badges)}
${tool.description ? `<p class="card-desc">${escapeHtml(tool.description)}</p>` : ''}
${renderScopes(tool.scopes)}
${notice}
<h4 class="sub-heading">Parameters</h4>
${renderInputSchema(tool.inputSchema, tool.name)}
</article>`;
}

export function renderResourceCard(resource: LandingResource): string {
  const id = anchorId('resource', resource.name);
  const badges = `<span class="badge badge--${resource.isTemplate ? 'template' : 'fixed'}">${resource.isTemplate ? 'Template' : 'Fixed URI'}</span>${resource.mimeType ? ` <span class="badge badge--mime">${escapeHtml(resource.mimeType)}</span>` : ''}`;
  return `<article id="${id}" class="card resource" aria-labelledby="${id}-name">
${cardHead(id, resource.name, resource.title, badges)}
<p class="uri"><span class="uri-label">${resource.isTemplate ? 'URI template' : 'URI'}</span> <code>${uriHtml(resource.uri, resource.isTemplate)}</code></p>
${resource.description ? `<p class="card-desc">${escapeHtml(resource.description)}</p>` : ''}
${renderScopes(resource.scopes)}
</article>`;
}

export function renderPromptCard(prompt: LandingPrompt): string {
  const id = anchorId('prompt', prompt.name);
  const args =
    prompt.arguments.length > 0
      ? renderParameterTable(
          prompt.arguments.map((arg) => ({
            path: [arg.name],
            // Prompt arguments are strings on the wire (MCP prompts/get).
            type: 'string',
            required: arg.required,
            ...(arg.description ? { description: arg.description } : {}),
            facts: [],
          })),
          `Arguments of ${prompt.name}`,
        )
      : '<p class="empty">Takes no arguments.</p>';
  return `<article id="${id}" class="card prompt" aria-labelledby="${id}-name">
${cardHead(id, prompt.name, prompt.title, '')}
${prompt.description ? `<p class="card-desc">${escapeHtml(prompt.description)}</p>` : ''}
${renderScopes(prompt.scopes)}
<h4 class="sub-heading">Arguments</h4>
${args}
</article>`;
}

/** The @Scopes a caller's token needs: every one listed, or any one of them. */
function renderScopes(requirement: ScopeRequirement | undefined): string {
  if (!requirement) return '';
  const names = requirement.scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`);
  const label = requirement.mode === 'any' && names.length > 1 ? 'Needs one of the scopes' : 'Needs the scopes';
  return `<p class="scopes"><span class="uri-label">${label}</span> ${names.join(' ')}</p>`;
}

/** Tools that run as tasks (the Tasks extension) for clients declaring it; `required` ones are refused to others. */
function taskBadge(task: LandingTool['task']): string {
  if (!task) return '';
  const title =
    task === 'required'
      ? 'Runs as a task: a client must declare the Tasks extension (io.modelcontextprotocol/tasks) to call it.'
      : 'Runs as a task for clients that declare the Tasks extension (io.modelcontextprotocol/tasks); an ordinary call for others.';
  return `<span class="badge badge--task" title="${escapeHtml(title)}">${task === 'required' ? 'Task required' : 'Task'}</span>`;
}

function cardHead(id: string, name: string, title: string | undefined, badges: string): string {
  return `<header class="card-head"><div><h3 id="${id}-name" class="card-name"><a href="#${id}"><code>${escapeHtml(name)}</code></a></h3>${title ? `<p class="card-title">${escapeHtml(title)}</p>` : ''}</div>${badges ? `<div class="badges">${badges}</div>` : ''}</header>`;
}

/** A URI with template variables (`{id}`) marked, each piece escaped on its own. */
function uriHtml(uri: string, isTemplate: boolean): string {
  if (!isTemplate) return escapeHtml(uri);
  return uri
    .split(/(\{[^}]*\})/)
    .map((piece) =>
      /^\{[^}]*\}$/.test(piece) ? `<span class="uri-var">${escapeHtml(piece)}</span>` : escapeHtml(piece),
    )
    .join('');
}
