// The tally board view rendered in headless Chromium by a host-like page: the official SDK client reads the view over
// Kiln's real HTTP host, and the page embeds it in a sandboxed iframe behind ext-apps' own AppBridge (the host half of
// the MCP Apps postMessage protocol), whose tools/call goes back through that client. Screenshot in test-output/.
import { mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { createTestingModule, ENVELOPE_PROTOCOL_VERSION, type TestingApp } from 'mcp-kiln/testing';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TallyAppsModule } from '../../examples/apps/apps.module.js';
import { http } from '../../modules/http/index.js';
import { launchChromium } from './helpers/chromium.js';

const SCREENSHOT_DIR = 'test-output';
const SCREENSHOT = `${SCREENSHOT_DIR}/mcp-apps-tally-board.png`;
const RENDERS_APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

interface ViewCsp {
  readonly connectDomains?: string[];
  readonly resourceDomains?: string[];
}

/** ext-apps' AppBridge and PostMessageTransport as one browser script (window.McpAppBridge), built with Vite. */
async function appBridgeScript(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-bridge');
  const output = await build({
    configFile: false,
    logLevel: 'warn',
    build: { write: false, minify: false, lib: { entry, formats: ['iife'], name: 'McpAppBridge', fileName: 'bridge' } },
  });
  const [result] = Array.isArray(output) ? output : [output];
  const chunk = result && 'output' in result ? result.output[0] : undefined;
  if (chunk?.type !== 'chunk') throw new Error('Vite built no script for the AppBridge.');
  return chunk.code;
}

/** The CSP a host puts on the view from its `_meta.ui.csp`: the extension's restrictive default plus what it declares. */
function viewCsp(csp: ViewCsp | undefined): string {
  const connect = csp?.connectDomains?.length ? csp.connectDomains.join(' ') : "'none'";
  const resources = csp?.resourceDomains?.join(' ') ?? '';
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`,
    `style-src 'unsafe-inline' ${resources}`,
    `img-src data: ${resources}`,
    `connect-src ${connect}`,
    "frame-src 'none'",
    "object-src 'none'",
  ].join('; ');
}

// Browser globals used inside page functions; the project compiles without the DOM lib.
declare const document: {
  body: { append(node: unknown): void };
  createElement(tag: string): Record<string, unknown> & { setAttribute(name: string, value: string): void };
};
declare const window: Record<string, unknown>;

interface HostSetup {
  readonly html: string;
  readonly toolResult: CallToolResult;
}

/** Embeds the view the way a host does: bridge connected first, then the view loaded, then input and result sent. */
async function embedView(page: Page, setup: HostSetup): Promise<void> {
  await page.evaluate(async ({ html, toolResult }) => {
    const { AppBridge, PostMessageTransport } = window.McpAppBridge as {
      AppBridge: new (...args: unknown[]) => Record<string, unknown> & { connect(t: unknown): Promise<void> };
      PostMessageTransport: new (target: unknown, source: unknown) => unknown;
    };
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('title', 'Tally board');
    frame.style = 'width: 480px; height: 200px; border: 1px solid #ccc; border-radius: 8px';
    document.body.append(frame);
    const view = frame.contentWindow;
    const bridge = new AppBridge(
      null,
      { name: 'kiln-test-host', version: '1.0.0' },
      { serverTools: {} },
      { hostContext: { theme: 'light', displayMode: 'inline' } },
    );
    bridge.oncalltool = (params: unknown) => (window.kilnCallTool as (p: unknown) => Promise<unknown>)(params);
    bridge.onsizechange = ({ height }: { height?: number }) => {
      if (height) frame.style = `width: 480px; height: ${height}px; border: 1px solid #ccc; border-radius: 8px`;
      window.viewHeight = height;
    };
    bridge.oninitialized = async () => {
      window.viewInitialized = true;
      await (bridge.sendToolInput as (p: unknown) => Promise<void>)({ arguments: {} });
      await (bridge.sendToolResult as (p: unknown) => Promise<void>)(toolResult);
    };
    await bridge.connect(new PostMessageTransport(view, view));
    frame.srcdoc = html;
  }, setup);
}

describe('the MCP Apps tally board in Chromium', () => {
  let testing: TestingApp;
  let serving: { endpointUrl: string; close(): Promise<void> };
  let client: Client;
  let browser: Browser;
  let page: Page;
  let board: FrameLocator;
  const calls: unknown[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    testing = await createTestingModule({ imports: [TallyAppsModule] }).compile({
      env: { MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_LOG_LEVEL: 'error' },
    });
    serving = await testing.app.serve(http());
    client = new Client(
      { name: 'kiln-test-host', version: '1.0.0' },
      { capabilities: RENDERS_APPS, versionNegotiation: { mode: { pin: ENVELOPE_PROTOCOL_VERSION } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.endpointUrl)));

    // What a host does before rendering: find the tool's view, read it, call the tool.
    const { tools } = await client.listTools();
    const ui = tools.find((tool) => tool.name === 'tally_show_board')?._meta?.ui as { resourceUri: string } | undefined;
    const uri = ui?.resourceUri ?? 'the board names no view';
    const { contents } = await client.readResource({ uri });
    const content = contents[0] as { text: string; mimeType: string; _meta?: { ui?: { csp?: ViewCsp } } };
    expect(content.mimeType).toBe('text/html;profile=mcp-app');
    const html = content.text.replace(
      '<head>',
      `<head><meta http-equiv="Content-Security-Policy" content="${viewCsp(content._meta?.ui?.csp)}">`,
    );
    const toolResult = (await client.callTool({ name: 'tally_show_board', arguments: {} })) as CallToolResult;

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 560, height: 420 } });
    await page.exposeFunction('kilnCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
      calls.push(params);
      return client.callTool(params);
    });
    await page.setContent('<!DOCTYPE html><html><body style="font-family: sans-serif; padding: 16px"></body></html>');
    await page.addScriptTag({ content: await appBridgeScript() });
    await embedView(page, { html, toolResult });
    board = page.frameLocator('iframe[title="Tally board"]');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await serving?.close();
    await testing?.close();
  });

  it('initializes with the host and renders the tool result it was sent', async () => {
    await expect.poll(() => page.evaluate(() => window.viewInitialized)).toBe(true);
    await expect.poll(() => board.locator('#status').textContent()).toBe('2 tallies');
    expect(await board.locator('li').allInnerTexts()).toEqual(['coffee\n2\n+1', 'tea\n1\n+1']);
    // The view reported its size, and the host sized the frame to it.
    await expect.poll(() => page.evaluate(() => window.viewHeight)).toBeGreaterThan(100);
  });

  it('calls back into the server through the host when a button is pressed', async () => {
    await board.getByRole('button', { name: 'Add one to coffee' }).click();
    await expect.poll(() => board.locator('#status').textContent()).toBe('coffee is now 3');
    expect(calls).toContainEqual({ name: 'tally_increment', arguments: { name: 'coffee' } });
    const fresh = await client.callTool({ name: 'tally_show_board', arguments: {} });
    expect(fresh.structuredContent).toEqual({
      tallies: [
        { name: 'coffee', count: 3 },
        { name: 'tea', count: 1 },
      ],
    });
  });

  it('starts a new tally from its form, and keeps a screenshot', async () => {
    await board.getByPlaceholder('Start a tally').fill('water');
    await board.getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => board.locator('#status').textContent()).toBe('water is now 1');
    expect(await board.locator('li').count()).toBe(3);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(5_000);
  });
});
