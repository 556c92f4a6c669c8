// The landing page rendered from a compiled app: every tool, resource and prompt with its documentation, disabled
// tools muted with their reason, and every model string escaped.

import type { TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderToolCard } from '../../modules/http/landing-page/catalog.js';
import { renderLandingPage } from '../../modules/http/landing-page/landing-page.js';
import type { LandingPageModel, LandingTool } from '../../modules/http/landing-page/model.js';
import { catalogLandingModel, ENDPOINT_URL } from './landing-page.fixture.js';

/** Text as a reader sees it: tags dropped, entities decoded, whitespace collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<\/?(?:span|code|a|strong)\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The `<article>` with this id. */
function card(html: string, id: string): string {
  const match = new RegExp(`<article id="${id}"[\\s\\S]*?</article>`).exec(html);
  if (!match) throw new Error(`No card #${id} on the page.`);
  return match[0];
}

/** Parameter-table rows as [name, type, required, description-and-facts] text cells. */
function rows(fragment: string): string[][] {
  return [...fragment.matchAll(/<tr class="depth-\d">([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => textOf(cell[1] ?? '')),
  );
}

function snippetText(html: string, kind: string): string {
  const match = new RegExp(
    `<figure class="snippet snippet--${kind}"[\\s\\S]*?<pre><code>([\\s\\S]*?)</code></pre>`,
  ).exec(html);
  return textOf(match?.[1] ?? '');
}

describe('landing page of a compiled app', () => {
  let app: TestingApp;
  let html: string;
  beforeAll(async () => {
    const built = await catalogLandingModel();
    app = built.app;
    html = renderLandingPage(built.model);
  });
  afterAll(() => app.close());

  it('shows the server identity, instructions and section counts', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>Kiln Catalogue · MCP server</title>');
    expect(textOf(html)).toContain('Kiln Catalogue kiln-catalog v1.2.0');
    expect(textOf(html)).toContain('3 tools (1 disabled) · 2 resources · 1 prompt');
    expect(html).toContain('Items are &lt;b&gt;never&lt;/b&gt; deleted');
    for (const landmark of ['<header class="masthead">', '<nav class="toc"', '<main id="main"', '<footer']) {
      expect(html).toContain(landmark);
    }
  });

  it('offers the endpoint, a JSON client config and a claude mcp add line', () => {
    expect(snippetText(html, 'endpoint')).toBe(ENDPOINT_URL);
    expect(JSON.parse(snippetText(html, 'config'))).toEqual({
      mcpServers: { 'kiln-catalog': { type: 'http', url: ENDPOINT_URL } },
    });
    expect(snippetText(html, 'cli')).toBe(`claude mcp add --transport http kiln-catalog ${ENDPOINT_URL}`);
  });

  it('documents a tool with nested, constrained and defaulted parameters', () => {
    const search = card(html, 'tool-catalog_search');
    expect(textOf(search)).toContain('catalog_search Search the catalogue Find catalogue items by name');
    expect(rows(search)).toEqual([
      ['query', 'string', 'required', 'Words to find in item names Min length: 1'],
      ['mode', 'string', 'optional', 'How hard to look One of: fast thorough Default: fast'],
      ['min_rating', 'integer', 'optional', 'Lowest star rating to include Default: 3 Minimum: 1 Maximum: 5'],
      ['filter', 'object', 'optional', 'Narrows the search to one shelf'],
      ['filter.shelf', 'string', 'required', 'Shelf code such as A3'],
      ['filter.added_after', 'string', 'optional', 'Only items added after this instant Format: date-time'],
      ['sort', 'object[]', 'optional', 'Sort keys, most significant first'],
      ['sort[].field', 'string', 'required', 'Field to sort by One of: name rating'],
    ]);
    expect(search).toContain('<tr class="depth-1"><th scope="row"><code class="param-name"><span class="path-parent">');
  });

  it('renders a discriminated-union input as one table per variant', () => {
    const update = card(html, 'tool-catalog_update');
    expect(textOf(update)).toContain('Arguments match exactly one of 2 shapes:');
    expect(textOf(update)).toContain('Variant 1: action = "rename" Give an item a new name');
    expect(textOf(update)).toContain('Variant 2: action = "archive"');
    expect(rows(update)).toEqual([
      ['action', '"rename"', 'required', 'Rename the item'],
      ['new_name', 'string', 'required', 'The name to give the item'],
      ['action', '"archive"', 'required', 'Archive the item'],
      ['reason', 'string', 'optional', 'Why the item is archived'],
    ]);
  });

  it('mutes a disabled tool and shows its reason, hint and version', () => {
    const exported = card(html, 'tool-catalog_export');
    expect(exported).toMatch(
      /^<article id="tool-catalog_export" class="card tool tool--disabled"[^>]*data-disabled="true"/,
    );
    expect(exported).toContain('<span class="badge badge--disabled">Disabled</span>');
    expect(textOf(exported)).toContain('since v0.3.0');
    expect(textOf(exported)).toContain('Not callable. Exports moved to the catalog://stats resource & its <friends>.');
    expect(exported).toContain('<pre class="hint"><code>Read catalog://stats instead</code></pre>');
    for (const enabled of ['tool-catalog_search', 'tool-catalog_update']) {
      expect(card(html, enabled)).not.toMatch(/tool--disabled|badge--disabled|disabled-note/);
    }
  });

  it('badges a tool that runs as a task, saying whether other clients can call it', () => {
    const tool = { name: 'slow', description: 'Slow work.', inputSchema: { type: 'object', properties: {} } };
    const optional = renderToolCard({ ...tool, task: 'optional' });
    const required = renderToolCard({ ...tool, task: 'required' });
    expect(optional).toMatch(
      /<span class="badge badge--task" title="Runs as a task for clients that declare[^"]*">Task<\/span>/,
    );
    expect(required).toMatch(
      /<span class="badge badge--task" title="Runs as a task: a client must declare[^"]*">Task required<\/span>/,
    );
    expect(renderToolCard(tool)).not.toContain('badge--task');
  });

  it('lists fixed resources and templates with their URIs and MIME types', () => {
    const stats = card(html, 'resource-catalog_stats');
    expect(textOf(stats)).toBe(
      'catalog_stats Catalogue statistics Fixed URI application/json URI catalog://stats Item counts per shelf.',
    );
    const item = card(html, 'resource-catalog_item');
    expect(textOf(item)).toContain('Template text/markdown URI template catalog://items/{id} One item as markdown.');
    expect(item).toContain('catalog://items/<span class="uri-var">{id}</span>');
  });

  it('lists prompts with their arguments', () => {
    const review = card(html, 'prompt-catalog_review');
    expect(textOf(review)).toContain('catalog_review Review an item Ask the model for a short review of one item.');
    expect(rows(review)).toEqual([
      ['item_id', 'string', 'required', 'Id of the item to review'],
      ['tone', 'string', 'optional', 'Tone of the review, such as friendly'],
    ]);
  });

  it('escapes author text: a description holding a script tag stays text', () => {
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('Exports the catalogue. &lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
    expect(html).toContain('Export &lt;everything&gt;');
    expect(html.match(/<script>/g)).toHaveLength(1);
  });
});

const PAYLOAD = '"><img src=x onerror=alert(1)>';

function model(overrides: Partial<LandingPageModel>): LandingPageModel {
  return {
    serverName: 'hand-made',
    version: '0.0.1',
    endpointUrl: ENDPOINT_URL,
    tools: [],
    resources: [],
    prompts: [],
    ...overrides,
  };
}

function tool(name: string, inputSchema: Record<string, unknown>, extra: Partial<LandingTool> = {}): LandingTool {
  return { name, description: `Tool ${name}.`, inputSchema, ...extra };
}

describe('landing page of a hand-built model', () => {
  it('escapes every model string, attributes included', () => {
    const page = renderLandingPage({
      serverName: PAYLOAD,
      serverTitle: PAYLOAD,
      version: PAYLOAD,
      instructions: PAYLOAD,
      endpointUrl: `http://127.0.0.1/${PAYLOAD}`,
      tools: [
        tool(
          PAYLOAD,
          {
            type: 'object',
            properties: { [PAYLOAD]: { type: PAYLOAD, description: PAYLOAD, enum: [PAYLOAD], default: PAYLOAD } },
          },
          { title: PAYLOAD, description: PAYLOAD, disabled: { reason: PAYLOAD, hint: PAYLOAD, since: PAYLOAD } },
        ),
      ],
      resources: [
        {
          name: PAYLOAD,
          title: PAYLOAD,
          description: PAYLOAD,
          uri: `x://{${PAYLOAD}}`,
          isTemplate: true,
          mimeType: PAYLOAD,
        },
      ],
      prompts: [
        {
          name: PAYLOAD,
          title: PAYLOAD,
          description: PAYLOAD,
          arguments: [{ name: PAYLOAD, description: PAYLOAD, required: true }],
        },
      ],
    });
    expect(page).not.toContain('<img');
    const ids = [...page.matchAll(/(?:id|aria-labelledby)="([^"]*)"|href="#([^"]*)"/g)].map((m) => m[1] ?? m[2]);
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(page.split('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;').length).toBeGreaterThan(20);
  });

  it('quotes a server name the shell would split', () => {
    const page = renderLandingPage(model({ serverName: "Bob's notes" }));
    expect(snippetText(page, 'cli')).toBe(`claude mcp add --transport http 'Bob'\\''s notes' ${ENDPOINT_URL}`);
  });

  it('says so when a section is empty or a tool takes no parameters', () => {
    const page = renderLandingPage(model({ tools: [tool('ping', { type: 'object', properties: {} })] }));
    expect(textOf(card(page, 'tool-ping'))).toContain('Parameters Takes no parameters.');
    expect(textOf(page)).toContain(
      'Resources 0 Data a client can read by URI. Templates take values for the parts in braces. None.',
    );
    expect(page).not.toContain('id="about"');
  });

  it('expands a recursive schema once and reads facts through nullable unions', () => {
    const tree = {
      type: 'object',
      properties: {
        root: { $ref: '#/$defs/node', description: 'The tree' },
        colour: { anyOf: [{ type: 'string', enum: ['red', 'green'] }, { type: 'null' }], description: 'A colour' },
        owner: {
          anyOf: [
            { type: 'object', properties: { id: { type: 'string', description: 'Owner id' } }, required: ['id'] },
            { type: 'null' },
          ],
          description: 'Who owns it',
        },
        scores: { type: 'object', additionalProperties: { type: 'number' }, description: 'Score per judge' },
      },
      required: ['root'],
      $defs: {
        node: {
          type: 'object',
          properties: {
            label: { type: 'string', description: 'Node label' },
            children: { type: 'array', items: { $ref: '#/$defs/node' }, description: 'Child nodes' },
          },
          required: ['label'],
        },
      },
    };
    expect(rows(card(renderLandingPage(model({ tools: [tool('tree', tree)] })), 'tool-tree'))).toEqual([
      ['root', 'object', 'required', 'The tree'],
      ['root.label', 'string', 'required', 'Node label'],
      ['root.children', 'object[]', 'optional', 'Child nodes'],
      ['colour', 'string | null', 'optional', 'A colour One of: red green'],
      ['owner', 'object | null', 'optional', 'Who owns it'],
      ['owner.id', 'string', 'required', 'Owner id'],
      ['scores', 'record<string, number>', 'optional', 'Score per judge'],
    ]);
  });
});
