// GET /: a self-contained HTML page describing the server to a person: identity, how to connect, and every tool,
// resource and prompt. Inline CSS, no external assets; the page reads fully without JavaScript. With the playground
// on, one script from the same origin adds forms that call the endpoint. A Content-Security-Policy names exactly
// the inline style and script by hash, so the page can load nothing from elsewhere.
import { createHash } from 'node:crypto';
import { renderCatalogSection, renderPromptCard, renderResourceCard, renderToolCard } from './catalog.js';
import { COPY_SCRIPT, renderConnectSection } from './connect.js';
import { escapeHtml, plural, versionLabel } from './html.js';
import type { LandingPageModel } from './model.js';
import { PLAYGROUND_SCRIPT_PATH } from './paths.js';
import { renderPlaygroundSection } from './playground-section.js';
import { PLAYGROUND_CSS } from './playground-styles.js';
import { LANDING_PAGE_CSS } from './styles.js';

export function renderLandingPage(model: LandingPageModel): string {
  const heading = model.serverTitle ?? model.serverName;
  const disabledCount = model.tools.filter((tool) => tool.disabled).length;
  const summary = [
    `${plural(model.tools.length, 'tool')}${disabledCount > 0 ? ` (${disabledCount} disabled)` : ''}`,
    plural(model.resources.length, 'resource'),
    plural(model.prompts.length, 'prompt'),
  ].join(' · ');
  const toc = [
    ['connect', 'Connect', undefined],
    ...(model.playground ? [['playground', 'Playground', undefined] as const] : []),
    ['tools', 'Tools', model.tools.length],
    ['resources', 'Resources', model.resources.length],
    ['prompts', 'Prompts', model.prompts.length],
  ] as const;
  const instructions = model.instructions
    ? `<section id="about" aria-labelledby="about-heading">
<h2 id="about-heading">About this server</h2>
<div class="instructions">${escapeHtml(model.instructions)}</div>
</section>`
    : '';
  const endpointPath = new URL(model.endpointUrl).pathname;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="description" content="${escapeHtml(`${heading}: an MCP server. ${summary}.`)}">
<title>${escapeHtml(heading)} · MCP server</title>
<link rel="icon" href="data:,">
<style>${pageCss(model)}</style>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="masthead">
<div class="wrap">
<p class="eyebrow">Model Context Protocol server</p>
<h1>${escapeHtml(heading)}</h1>
<p class="identity"><code>${escapeHtml(model.serverName)}</code> <span class="badge badge--version">${escapeHtml(versionLabel(model.version))}</span></p>
<p class="summary">${escapeHtml(summary)}${model.protection ? ' <span class="badge badge--protected">Bearer token required</span>' : ''}</p>
<nav class="toc" aria-label="On this page"><ul>
${toc.map(([id, label, count]) => `<li><a href="#${id}">${label}${count === undefined ? '' : ` <span class="count">${count}</span>`}</a></li>`).join('\n')}
</ul></nav>
</div>
</header>
<main id="main" class="wrap">
${instructions}
${renderConnectSection(model.serverName, model.endpointUrl, model.protection)}
${model.playground ? renderPlaygroundSection(model, endpointPath) : ''}
${renderCatalogSection('tools', 'Tools', 'Actions a model can take through this server. Each lists the arguments it accepts.', model.tools.map(renderToolCard))}
${renderCatalogSection('resources', 'Resources', 'Data a client can read by URI. Templates take values for the parts in braces.', model.resources.map(renderResourceCard))}
${renderCatalogSection('prompts', 'Prompts', 'Message templates a client can offer its user, filled in from the arguments.', model.prompts.map(renderPromptCard))}
</main>
<footer class="site-footer">
<p>This page is for people. MCP clients connect to <code>${escapeHtml(model.endpointUrl)}</code>. Served by mcp-kiln.</p>
</footer>
<p id="copy-status" class="visually-hidden" aria-live="polite"></p>
<script>${COPY_SCRIPT}</script>
${model.playground ? `<script src="${escapeHtml(model.playgroundScriptPath ?? PLAYGROUND_SCRIPT_PATH)}" defer></script>` : ''}
</body>
</html>
`;
}

/**
 * The page's Content-Security-Policy: its own inline style and script by hash, the playground script and the MCP
 * endpoint on the same origin, data: images (the icon, image results), and nothing else.
 */
export function landingPagePolicy(model: LandingPageModel): string {
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  return [
    "default-src 'none'",
    `script-src ${model.playground ? "'self' " : ''}${hash(COPY_SCRIPT)}`,
    `style-src ${hash(pageCss(model))}`,
    'img-src data:',
    'media-src data:',
    `connect-src ${model.playground ? "'self'" : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function pageCss(model: LandingPageModel): string {
  return model.playground ? LANDING_PAGE_CSS + PLAYGROUND_CSS : LANDING_PAGE_CSS;
}
