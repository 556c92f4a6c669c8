// The landing page in headless Chromium: what a person actually sees (text, muted disabled cards, copy buttons,
// dark mode), with a full-page screenshot in test-output/ to look at.
import { mkdirSync, statSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../modules/http/index.js';
import { launchChromium } from './helpers/chromium.js';
import { compileCatalogApp } from './landing-page.fixture.js';

// Browser globals used inside page functions; the project compiles without the DOM lib.
declare const getComputedStyle: (element: unknown) => { opacity: string; backgroundColor: string; fontFamily: string };
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

const SCREENSHOT_DIR = 'test-output';
const SCREENSHOT = `${SCREENSHOT_DIR}/landing-page.png`;

interface ServedPage {
  /** Where the landing page is. */
  readonly url: string;
  /** The MCP endpoint the page advertises. */
  readonly endpointUrl: string;
  close(): Promise<void>;
}

/** The catalogue app served by Kiln's real HTTP host on a free port; the page is GET / of that host. */
async function serveLandingPage(): Promise<ServedPage> {
  const testing = await compileCatalogApp({ MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0' });
  const serving = await testing.app.serve(http());
  return {
    url: serving.url,
    endpointUrl: serving.endpointUrl,
    close: async () => {
      await serving.close();
      await testing.close();
    },
  };
}

/** Text as rendered: what a person reads, after CSS (hidden parts left out, line breaks where blocks break). */
function seen(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: rendered text, not DOM text, is what this test asserts.
  return locator.innerText();
}

describe('landing page in Chromium', () => {
  let browser: Browser;
  let served: ServedPage;
  let page: Page;
  const dialogs: string[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    browser = await launchChromium();
    served = await serveLandingPage();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(served.url).origin });
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const response = await page.goto(served.url);
    expect(response?.status()).toBe(200);
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('shows each tool card with its name, title, description and parameters', async () => {
    await expect(page.locator('article.tool').count()).resolves.toBe(3);
    const search = await seen(page.locator('#tool-catalog_search'));
    for (const text of ['catalog_search', 'Search the catalogue', 'Find catalogue items by name', 'filter.shelf']) {
      expect(search).toContain(text);
    }
    expect(await seen(page.locator('#tool-catalog_update'))).toContain('Variant 2: action = "archive"');
    expect(await seen(page.locator('h1'))).toBe('Kiln Catalogue');
    await expect(page.locator('header, nav, main, footer').count()).resolves.toBeGreaterThanOrEqual(4);
  });

  it('mutes the disabled tool and shows its reason and hint', async () => {
    const opacity = (selector: string) =>
      page.locator(selector).evaluate((element) => Number(getComputedStyle(element).opacity));
    expect(await opacity('#tool-catalog_export')).toBeLessThan(1);
    expect(await opacity('#tool-catalog_search')).toBe(1);
    const exported = page.locator('#tool-catalog_export');
    expect(await exported.locator('.badge').allInnerTexts()).toEqual(['Disabled', 'since v0.3.0']);
    expect(await seen(exported)).toContain('Exports moved to the catalog://stats resource & its <friends>.');
    const hint = exported.locator('.hint');
    expect(await hint.isVisible()).toBe(true);
    expect(await seen(hint)).toBe('Read catalog://stats instead');
    expect(await hint.evaluate((element) => getComputedStyle(element).fontFamily)).toMatch(/mono/i);
  });

  it('offers the client config and copies it with the Copy button', async () => {
    const config = page.locator('figure.snippet--config');
    expect(JSON.parse(await seen(config.locator('pre')))).toEqual({
      mcpServers: { 'kiln-catalog': { type: 'http', url: served.endpointUrl } },
    });
    expect(await seen(page.locator('figure.snippet--cli pre'))).toBe(
      `claude mcp add --transport http kiln-catalog ${served.endpointUrl}`,
    );
    await config.getByRole('button', { name: /copy/i }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toContain('"mcpServers"');
    expect(await seen(config.getByRole('button'))).toBe('Copied');
  });

  it('shows markup from descriptions as text and runs none of it', async () => {
    expect(await seen(page.locator('#tool-catalog_export'))).toContain('<script>alert("pwned")</script>');
    // The copy script, the playground's data (JSON, never run) and the playground script: nothing from the markup.
    const scripts = await page
      .locator('script')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('src') ?? node.getAttribute('type') ?? 'inline'));
    expect(scripts).toEqual(['application/json', 'inline', '/playground.js']);
    expect(dialogs).toEqual([]);
  });

  it('follows prefers-color-scheme', async () => {
    const background = () => page.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(served.url);
    const dark = await background();
    expect(light).toBe('rgb(245, 246, 248)');
    expect(dark).toBe('rgb(14, 17, 22)');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/landing-page-dark.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('fits a phone screen: wide tables scroll inside their own region', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(served.url);
    const { scrollWidth, clientWidth } = await phone.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    await phone.screenshot({ path: `${SCREENSHOT_DIR}/landing-page-phone.png`, fullPage: true });
    await phone.close();
  });

  it('takes a full-page screenshot', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(served.url);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(30_000);
  });
});
