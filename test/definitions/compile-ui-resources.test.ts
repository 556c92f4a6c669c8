// MCP Apps views compiled at boot: HTML from a string or a file read once, CSP and permissions checked and carried as
// `_meta.ui`, and every view a tool names resolved; each problem stops boot naming the view or the tool.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Resource, Tool, type UiResourceDeclaration, uiResource } from 'mcp-kiln';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileUiResources } from '../../src/definitions/ui/compile-ui-resources.js';
import { bootApp, bootProblem, bootProblems, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

const PAGE = '<!DOCTYPE html><html><body>view</body></html>';
const MIME = 'text/html;profile=mcp-app';
const folder = mkdtempSync(join(tmpdir(), 'kiln-ui-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

@Tool('view_tool', { description: 'Shows the view.', input: z.object({}), ui: 'ui://test/view' })
class ViewTool {
  handle() {
    return 'shown';
  }
}

async function compiled(declarations: UiResourceDeclaration[], tools = [{ name: 't', ui: undefined }]) {
  const findings = { errors: [] as string[], warnings: [] as string[] };
  const views = await compileUiResources(declarations, tools, new Set(), findings);
  return { views, ...findings };
}

describe('compileUiResources', () => {
  it('serves a view written in code as text/html;profile=mcp-app, with its _meta.ui in the listing and the read', async () => {
    const csp = { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com:8443'] };
    const { views, errors } = await compiled([
      uiResource('ui://test/view', {
        name: 'view',
        title: 'The view',
        description: 'Shows things.',
        html: PAGE,
        csp,
        permissions: { clipboardWrite: {} },
        domain: 'view.example.com',
        prefersBorder: false,
      }),
    ]);
    expect(errors).toEqual([]);
    const ui = { csp, permissions: { clipboardWrite: {} }, domain: 'view.example.com', prefersBorder: false };
    expect(views?.listing).toEqual([
      {
        uri: 'ui://test/view',
        name: 'view',
        title: 'The view',
        description: 'Shows things.',
        mimeType: MIME,
        _meta: { ui },
      },
    ]);
    expect(views?.byUri.get('ui://test/view')).toEqual({
      contents: [{ uri: 'ui://test/view', mimeType: MIME, text: PAGE, _meta: { ui } }],
    });
  });

  it('reads a file once, given as a path or a file: URL, and leaves out _meta when nothing is declared', async () => {
    const file = join(folder, 'view.html');
    writeFileSync(file, PAGE);
    const { views, errors } = await compiled([
      uiResource('ui://test/a', { name: 'a', file }),
      uiResource('ui://test/b', { name: 'b', file: pathToFileURL(file) }),
    ]);
    expect(errors).toEqual([]);
    expect(views?.byUri.get('ui://test/a')).toEqual({ contents: [{ uri: 'ui://test/a', mimeType: MIME, text: PAGE }] });
    expect(views?.byUri.get('ui://test/b')?.contents[0]).toMatchObject({ text: PAGE });
    expect(views?.listing[0]).not.toHaveProperty('_meta');
  });

  it('reports each bad declaration with what to write instead', async () => {
    const { errors } = await compiled([
      uiResource('https://test/view', { name: 'x', html: PAGE }),
      uiResource('ui://test/nameless', { name: '', html: PAGE }),
      { uri: 'ui://test/both', name: 'both', html: PAGE, file: '/tmp/x.html' },
      uiResource('ui://test/missing', { name: 'missing', file: join(folder, 'nope.html') }),
      uiResource('ui://test/empty', { name: 'empty', html: '  ' }),
      uiResource('ui://test/csp', { name: 'csp', html: PAGE, csp: { connectDomains: ['api.example.com/v1'] } }),
      uiResource('ui://test/key', { name: 'key', html: PAGE, csp: { scriptDomains: [] } as never }),
      uiResource('ui://test/perm', { name: 'perm', html: PAGE, permissions: { usb: {} } as never }),
      uiResource('ui://test/twice', { name: 'one', html: PAGE }),
      uiResource('ui://test/twice', { name: 'two', html: PAGE }),
    ]);
    expect(errors).toEqual([
      'UI resource https://test/view: a view is served at a ui:// URI (ui://<server>/<view>).',
      'UI resource ui://test/nameless: give it a name (shown in resources/list).',
      'UI resource ui://test/both: give its HTML with exactly one of html and file.',
      expect.stringMatching(/^UI resource ui:\/\/test\/missing: cannot read its file .*nope\.html \(ENOENT/),
      'UI resource ui://test/empty: its HTML is empty.',
      'UI resource ui://test/csp: csp.connectDomains lists ["api.example.com/v1"]; each entry is an origin such as https://api.example.com or https://*.example.com.',
      'UI resource ui://test/key: csp.scriptDomains is not a CSP field (connectDomains, resourceDomains, frameDomains, baseUriDomains).',
      'UI resource ui://test/perm: permissions.usb is not a permission a host grants (camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {}).',
      'UI resource ui://test/twice: is served twice.',
    ]);
  });

  it('warns about a fragment and about a view no tool names', async () => {
    const { warnings, errors } = await compiled([uiResource('ui://test/frag', { name: 'frag', html: '<p>hi</p>' })]);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([
      'UI resource ui://test/frag: its HTML has no <!DOCTYPE html> or <html> element; hosts expect a whole document.',
      'UI resource ui://test/frag is served, but no tool names it in its ui option.',
    ]);
  });
});

describe('a tool naming a view, at boot', () => {
  it('boots when a module serves the view', async () => {
    const app = await bootApp(
      fixtureModule({ tools: [ViewTool], uiResources: [uiResource('ui://test/view', { name: 'view', html: PAGE })] }),
    );
    expect(app).toBeDefined();
  });

  it('stops boot when no module serves the view it names', async () => {
    expect(await bootProblem(fixtureModule({ tools: [ViewTool] }))).toBe(
      "Tool view_tool names the view ui://test/view, which no module serves: add uiResource('ui://test/view', " +
        "{ name, html | file }) to a module's uiResources.",
    );
  });

  it('stops boot for a ui option that is not a ui:// URI, a bad visibility, or a hand-written _meta.ui', async () => {
    @Tool('http_view', { description: 'Shows.', input: z.object({}), ui: 'https://example.com/view' })
    class HttpView {
      handle() {
        return 'x';
      }
    }
    @Tool('no_one', {
      description: 'Shows.',
      input: z.object({}),
      ui: { resourceUri: 'ui://test/view', visibility: [] },
    })
    class NoOne {
      handle() {
        return 'x';
      }
    }
    @Tool('hand_meta', { description: 'Shows.', input: z.object({}), _meta: { ui: { resourceUri: 'ui://test/view' } } })
    class HandMeta {
      handle() {
        return 'x';
      }
    }
    const problems = await bootProblems(
      fixtureModule({
        tools: [HttpView, NoOne, HandMeta],
        uiResources: [uiResource('ui://test/view', { name: 'view', html: PAGE })],
      }),
    );
    expect(problems).toEqual([
      'Tool http_view (HttpView): ui names "https://example.com/view"; a view\'s URI starts with ui://.',
      "Tool no_one (NoOne): ui.visibility must list 'model', 'app' or both (got []).",
      "Tool hand_meta (HandMeta): _meta.ui is written by Kiln; name the view with the ui option (ui: 'ui://…') instead.",
    ]);
  });

  it('stops boot when a view and a @Resource share a URI', async () => {
    @Resource('ui://test/view', { name: 'clash', description: 'A resource at the view URI.' })
    class Clash {
      handle() {
        return PAGE;
      }
    }
    expect(
      await bootProblem(
        fixtureModule({
          tools: [ViewTool],
          resources: [Clash],
          uiResources: [uiResource('ui://test/view', { name: 'view', html: PAGE })],
        }),
      ),
    ).toBe('UI resource ui://test/view: a @Resource already serves this URI.');
  });
});
