// The playground section of the landing page: the heading, what the playground does, the token form when the
// endpoint needs a bearer token, and the data the script builds the forms from (a JSON block, never executed).
// Everything interactive is built by the playground script; without it the section says so.

import { ENVELOPE_REVISION } from '../fast-path/sdk-envelope-binding.js';
import { escapeHtml } from './html.js';
import type { LandingPageModel } from './model.js';

/** What the playground script reads from the page: the endpoint, the wire, and what can be tried. */
export function playgroundData(model: LandingPageModel, endpointPath: string): string {
  const data = {
    endpoint: endpointPath,
    protocolVersion: ENVELOPE_REVISION,
    client: { name: 'mcp-kiln-playground', version: '1.0.0' },
    auth: model.protection !== undefined,
    tools: model.tools
      .filter((tool) => !tool.disabled)
      .map(({ name, title, description, inputSchema, enrichmentKeys }) => ({
        name,
        title,
        description,
        inputSchema,
        enrichmentKeys,
      })),
    resources: model.resources.map(({ name, title, description, uri, isTemplate, mimeType }) => ({
      name,
      title,
      description,
      uri,
      isTemplate,
      mimeType,
    })),
    prompts: model.prompts.map(({ name, title, description, arguments: args }) => ({
      name,
      title,
      description,
      arguments: args,
    })),
  };
  // `<` escaped, so no string in a schema can close the block or open a comment.
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

export function renderPlaygroundSection(model: LandingPageModel, endpointPath: string): string {
  const gate = model.protection
    ? `<form id="pg-token" class="pg-token" aria-labelledby="pg-token-label">
<p id="pg-token-label" class="pg-token-intro">This server requires a bearer token, so the playground opens once you give it yours. The token stays in this page's memory and goes only to <code>${escapeHtml(endpointPath)}</code> in the <code>Authorization</code> header; reloading the page forgets it.</p>
<div class="pg-field pg-inline"><label for="pg-token-input">Bearer token</label><input id="pg-token-input" type="password" autocomplete="off" spellcheck="false"><button type="submit">Use token</button></div>
</form>
<button type="button" id="pg-forget" class="pg-forget" hidden>Forget the token</button>`
    : '';
  return `<section id="playground" class="playground" aria-labelledby="playground-heading">
<h2 id="playground-heading">Playground</h2>
<p class="section-intro">Call a tool, read a resource or get a prompt from this page. Requests go to this server's MCP endpoint on the ${ENVELOPE_REVISION} protocol, exactly as a client's would: a tool that changes data changes it.</p>
${gate}
<div id="pg-root" class="pg-root"></div>
<noscript><p class="empty">The playground needs JavaScript; the rest of this page does not.</p></noscript>
<script type="application/json" id="pg-data">${playgroundData(model, endpointPath)}</script>
</section>`;
}
