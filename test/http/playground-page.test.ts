// The playground's server side without a browser: the section and its data block on the rendered page (markup in
// any string stays inside the JSON), the page's Content-Security-Policy naming exactly its inline parts, and the
// served script being the bundle of the typed browser sources (modules/http/landing-page/playground/): one classic
// script, with nothing to import at run time.
import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import type { TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landingPagePolicy, renderLandingPage } from '../../modules/http/landing-page/landing-page.js';
import type { LandingPageModel } from '../../modules/http/landing-page/model.js';
import { PLAYGROUND_SCRIPT } from '../../modules/http/landing-page/playground-script.js';
import { bundlePlayground } from '../../scripts/playground-bundle.mjs';
import { catalogLandingModel } from './landing-page.fixture.js';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function between(html: string, open: string, close: string): string {
  const start = html.indexOf(open);
  if (start < 0) throw new Error(`${open} is not on the page.`);
  return html.slice(start + open.length, html.indexOf(close, start + open.length));
}

describe('the playground on the rendered page', () => {
  let app: TestingApp;
  let model: LandingPageModel;
  beforeAll(async () => {
    const built = await catalogLandingModel();
    app = built.app;
    const [first, ...rest] = built.model.tools;
    if (!first) throw new Error('The catalogue fixture has no tools.');
    // A description that tries to close the data block and run a script of its own.
    const hostile = { ...first, description: 'Finds things </script><script>alert(1)</script> <!-- x' };
    model = { ...built.model, tools: [hostile, ...rest], playground: true };
  });
  afterAll(() => app.close());

  it('is absent unless the model offers it', () => {
    const html = renderLandingPage({ ...model, playground: false });
    expect(html).not.toContain('id="playground"');
    expect(html).not.toContain('playground.js');
    expect(html).not.toContain('pg-data');
  });

  it('carries the callable tools, resources and prompts as inert JSON, markup and all', () => {
    const html = renderLandingPage(model);
    expect(html).toContain('<a href="#playground">Playground</a>');
    expect(html).toContain('<script src="/playground.js" defer></script>');
    const block = between(html, '<script type="application/json" id="pg-data">', '</script>');
    expect(block).not.toMatch(/<\/?script|<!--/i);
    const data = JSON.parse(block);
    expect(data).toMatchObject({ endpoint: '/mcp', protocolVersion: '2026-07-28', auth: false });
    // The disabled tool is not offered; the others are, with their input schemas.
    expect(data.tools.map((tool: { name: string }) => tool.name)).toEqual(['catalog_search', 'catalog_update']);
    expect(data.tools[0].description).toBe('Finds things </script><script>alert(1)</script> <!-- x');
    expect(data.tools[1].inputSchema.oneOf).toHaveLength(2);
    expect(data.resources.map((resource: { uri: string }) => resource.uri)).toEqual([
      'catalog://stats',
      'catalog://items/{id}',
    ]);
    expect(data.prompts[0].arguments).toEqual([
      { name: 'item_id', description: 'Id of the item to review', required: true },
      { name: 'tone', description: 'Tone of the review, such as friendly', required: false },
    ]);
  });

  it('asks for a token first when the endpoint is protected', () => {
    const protection = { authorizationServers: ['https://auth.example'], metadataUrl: 'https://x/.well-known/y' };
    const html = renderLandingPage({ ...model, protection });
    expect(html).toContain('<label for="pg-token-input">Bearer token</label>');
    expect(JSON.parse(between(html, 'id="pg-data">', '</script>')).auth).toBe(true);
  });

  it("allows exactly the page's own inline style and script, and same-origin script and fetches", () => {
    for (const playground of [true, false]) {
      const page = { ...model, playground };
      const html = renderLandingPage(page);
      const policy = landingPagePolicy(page);
      const style = between(html, '<style>', '</style>');
      const inline = between(html, '<script>', '</script>');
      expect(policy).toContain(`style-src ${sha256(style)}`);
      expect(policy).toContain(`script-src ${playground ? "'self' " : ''}${sha256(inline)}`);
      expect(policy).toContain(`connect-src ${playground ? "'self'" : "'none'"}`);
      expect(policy).toContain("default-src 'none'");
    }
  });

  it('serves a script that parses', () => {
    expect(() => new Script(PLAYGROUND_SCRIPT, { filename: 'playground.js' })).not.toThrow();
  });

  it('serves the bundle of the typed sources: one script, no imports or exports', async () => {
    const { code, files } = await bundlePlayground();
    expect(PLAYGROUND_SCRIPT).toBe(code);
    // Parsing as a classic script already refuses a static import or export; a dynamic import would still load.
    expect(PLAYGROUND_SCRIPT).not.toMatch(/\bimport\s*\(|^\s*(?:import|export)\b/m);
    expect(PLAYGROUND_SCRIPT).toMatch(/^"use strict";\n\(function\(\) \{$/m);
    // Functions of the schema, form, wire and app sources, under their TypeScript names.
    for (const name of ['resolveSchema', 'buildField', 'mcpRequest', 'askForInput', 'tokenGate']) {
      expect(PLAYGROUND_SCRIPT).toContain(`function ${name}(`);
    }
    const sources = files
      .filter((file) => file.includes('/landing-page/playground/'))
      .map((file) => file.split('/').pop());
    expect(sources).toEqual(expect.arrayContaining(['main.ts', 'app.ts', 'schema.ts', 'wire.ts']));
  });
});
