// When the playground is offered: never in production unless MCP_PLAYGROUND=on, and under auth only once the person
// gives the page a bearer token, which stays in the page's memory and goes out only as the Authorization header.
import { authFromEnv } from 'mcp-kiln/auth';
import { startTestIssuer, type TestIssuer } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE } from './helpers/auth-server.js';
import { mcpRequests, openPlayground, type PlaygroundSession, SCREENSHOT_DIR } from './helpers/playground-page.js';

declare const localStorage: { length: number };
declare const sessionStorage: { length: number };
declare const document: { cookie: string };

describe('the playground in production', () => {
  let session: PlaygroundSession;
  beforeAll(async () => {
    session = await openPlayground({ NODE_ENV: 'production' });
  });
  afterAll(() => session?.close());

  it('is not on the page, its script is not served, and the page may connect nowhere', async () => {
    const { page, serving } = session;
    await expect(page.locator('#playground, #pg-root, .pg-try').count()).resolves.toBe(0);
    await expect(page.locator('a[href="#playground"]').count()).resolves.toBe(0);
    expect((await fetch(new URL('/playground.js', serving.url))).status).toBe(404);
    const policy = (await fetch(serving.url)).headers.get('content-security-policy') ?? '';
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toMatch(/script-src 'sha256-[^']+'(;|$)/);
    expect(session.requests.map((request) => new URL(request.url()).pathname)).toEqual(['/']);
  });
});

describe('the playground under auth', () => {
  let issuer: TestIssuer;
  let session: PlaygroundSession;
  beforeAll(async () => {
    issuer = await startTestIssuer({ audience: RESOURCE });
    const env = issuer.oauthEnv(RESOURCE);
    const auth = authFromEnv({ MCP_TRANSPORT_TYPE: 'http', ...env });
    session = await openPlayground(env, auth ? { auth } : {});
  });
  afterAll(async () => {
    await session?.close();
    await issuer?.close();
  });

  it('offers nothing to run until the page has a token', async () => {
    const { page } = session;
    expect(await page.getByLabel('Bearer token', { exact: true }).isVisible()).toBe(true);
    await expect(page.locator('#pg-target, #pg-args, .pg-try').count()).resolves.toBe(0);
    await page.locator('#playground').screenshot({ path: `${SCREENSHOT_DIR}/playground-token.png` });
    expect(mcpRequests(session, session.serving.endpointUrl)).toEqual([]);
  });

  it('shows the 401 a bad token gets, and forgets a token on request', async () => {
    const { page } = session;
    await page.getByLabel('Bearer token', { exact: true }).fill('not-a-token');
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.locator('#pg-target').selectOption('tool:pg_lookup');
    await page.locator('#pg-args').getByLabel('isbn', { exact: true }).fill('978');
    await page.locator('#pg-run').click();
    await page.locator('#pg-result [data-part="error"]').waitFor();
    expect(await page.locator('#pg-status').textContent()).toMatch(/\(HTTP 401\)\.$/);
    await page.getByRole('button', { name: 'Forget the token' }).click();
    await expect(page.locator('#pg-target').count()).resolves.toBe(0);
    expect(await page.getByLabel('Bearer token', { exact: true }).isVisible()).toBe(true);
  });

  it("calls with the caller's token in the Authorization header and keeps it nowhere else", async () => {
    const { page } = session;
    const token = await issuer.mintToken({ tenant: 'acme' });
    await page.getByLabel('Bearer token', { exact: true }).fill(token);
    await page.getByRole('button', { name: 'Use token' }).click();
    expect(await page.getByLabel('Bearer token', { exact: true }).inputValue()).toBe('');
    await page.locator('#pg-target').selectOption('tool:pg_lookup');
    await page.locator('#pg-args').getByLabel('isbn', { exact: true }).fill('978');
    await page.locator('#pg-run').click();
    await page.locator('#pg-result [data-part="structured"]').waitFor();
    const last = mcpRequests(session, session.serving.endpointUrl).at(-1);
    expect(last?.headers.authorization).toBe(`Bearer ${token}`);
    const kept = await page.evaluate(() => ({
      local: localStorage.length,
      session: sessionStorage.length,
      cookie: document.cookie,
    }));
    expect(kept).toEqual({ local: 0, session: 0, cookie: '' });
    expect(session.foreign).toEqual([]);
    expect(session.errors.filter((error) => !error.includes('401'))).toEqual([]);
  });
});
