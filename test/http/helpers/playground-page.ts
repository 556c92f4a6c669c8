// The playground fixture served by Kiln's real HTTP host and opened in headless Chromium, with every request the
// page makes recorded (and anything not for the server's own origin refused, as on a machine with no network).
import type { Browser, Page, Request } from 'playwright-core';
import { type HttpHostOptions, type HttpServing, http } from '../../../modules/http/index.js';
import type { TestingApp } from '../../../src/testing/index.js';
import { compilePlaygroundApp } from '../playground.fixture.js';
import { launchChromium } from './chromium.js';

export const SCREENSHOT_DIR = 'test-output';

export interface PlaygroundSession {
  readonly browser: Browser;
  readonly page: Page;
  readonly serving: HttpServing;
  /** Every request the page made, in order. */
  readonly requests: Request[];
  /** Requests for anything but the server's origin, refused. */
  readonly foreign: string[];
  /** Uncaught errors in the page and console errors. */
  readonly errors: string[];
  close(): Promise<void>;
}

/** `compile` builds the app to serve (the playground fixture unless given), with the env it is handed. */
export async function openPlayground(
  env: Readonly<Record<string, string>> = {},
  hostOptions: HttpHostOptions = {},
  compile: (env: Readonly<Record<string, string>>) => Promise<TestingApp> = compilePlaygroundApp,
): Promise<PlaygroundSession> {
  const testing = await compile({ MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', ...env });
  const serving = await testing.app.serve(http(hostOptions));
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const origin = new URL(serving.url).origin;
  const requests: Request[] = [];
  const foreign: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    foreign.push(url);
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  page.on('request', (request) => requests.push(request));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  const response = await page.goto(serving.url);
  if (response?.status() !== 200) throw new Error(`The landing page answered HTTP ${response?.status()}.`);
  return {
    browser,
    page,
    serving,
    requests,
    foreign,
    errors,
    close: async () => {
      await browser.close();
      await serving.close();
      await testing.close();
    },
  };
}

/** The MCP requests the page sent, parsed: method, params and the headers that carried them. */
export function mcpRequests(session: PlaygroundSession, endpointUrl: string) {
  return session.requests
    .filter((request) => request.url() === endpointUrl && request.method() === 'POST')
    .map((request) => {
      const body = request.postDataJSON() as { method: string; params: Record<string, unknown> };
      return { method: body.method, params: body.params, headers: request.headers() };
    });
}
