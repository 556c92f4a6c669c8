// The "Connect" section: the MCP endpoint and ready-to-paste client configuration. The snippets are plain text a
// reader can select; a small script adds Copy buttons where it may run, and nothing depends on it.

import { escapeHtml, shellWord } from './html.js';
import type { LandingProtection } from './model.js';

export function renderConnectSection(serverName: string, endpointUrl: string, protection?: LandingProtection): string {
  const config = JSON.stringify({ mcpServers: { [serverName]: { type: 'http', url: endpointUrl } } }, null, 2);
  const command = `claude mcp add --transport http ${shellWord(serverName)} ${shellWord(endpointUrl)}`;
  return `<section id="connect" class="connect" aria-labelledby="connect-heading">
<h2 id="connect-heading">Connect</h2>
<p>MCP clients reach this server over Streamable HTTP at this endpoint:</p>
${protection ? renderProtection(protection) : ''}
${snippet('endpoint', 'MCP endpoint URL', endpointUrl)}
${snippet('cli', 'Claude Code: add it from the command line', command)}
${snippet('config', 'Other clients: add it to the <code>mcpServers</code> configuration', config)}
</section>`;
}

/** Protected servers say so before the snippets: a client needs a token, and where to find out how to get one. */
function renderProtection({ authorizationServers, metadataUrl }: LandingProtection): string {
  const servers = authorizationServers.map((server) => `<code>${escapeHtml(server)}</code>`).join(', ');
  return `<div class="protected-note" role="note"><p><strong>Protected.</strong> Every request needs an OAuth access token for this server in <code>Authorization: Bearer</code>${servers ? `, issued by ${servers}` : ''}. Tools, resources and prompts marked with scopes need a token granted those scopes.${metadataUrl ? ` Clients discover how to get one from <a href="${escapeHtml(metadataUrl)}"><code>${escapeHtml(metadataUrl)}</code></a>.` : ' Ask the operator of this server for one.'}</p></div>`;
}

function snippet(kind: string, caption: string, text: string): string {
  const label = caption.replace(/<[^>]+>/g, '');
  return `<figure class="snippet snippet--${kind}" data-copy="${escapeHtml(label)}"><figcaption><span>${caption}</span></figcaption><pre><code>${escapeHtml(text)}</code></pre></figure>`;
}

// Progressive enhancement only: the Clipboard API needs a secure context (localhost counts), so elsewhere the
// button selects the snippet for the reader to copy by hand.
export const COPY_SCRIPT = `(() => {
  const status = document.getElementById('copy-status');
  for (const block of document.querySelectorAll('[data-copy]')) {
    const code = block.querySelector('pre code');
    if (!code) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy ' + block.getAttribute('data-copy'));
    button.addEventListener('click', async () => {
      let message = 'Copied';
      try {
        await navigator.clipboard.writeText(code.textContent);
      } catch {
        getSelection().selectAllChildren(code);
        message = 'Selected, press Ctrl+C';
      }
      button.textContent = message;
      if (status) status.textContent = message;
      setTimeout(() => { button.textContent = 'Copy'; }, 2000);
    });
    (block.querySelector('figcaption') || block).append(button);
  }
})();`;
