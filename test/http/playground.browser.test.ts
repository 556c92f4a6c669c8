// The landing page's playground in headless Chromium against a real Kiln server: real calls over the MCP endpoint on
// 2026-07-28, the result's parts, streamed notifications, input-required rounds answered in the page, resources,
// templates and prompts, forms generated from schemas, and screenshots in test-output/ to look at.
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpRequests, openPlayground, type PlaygroundSession, SCREENSHOT_DIR } from './helpers/playground-page.js';
import { streamGate } from './playground.fixture.js';

/** Text as rendered, which is what a person reads; blank lines between blocks collapsed. */
async function seen(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: rendered text, not DOM text, is what this test asserts.
  return (await locator.innerText()).replace(/\n\s*\n/g, '\n');
}

/** Each notification line as one line of text. */
async function eventLines(): Promise<string[]> {
  const texts = await page.locator('#pg-events li').allInnerTexts();
  return texts.map((text) => text.replace(/\s+/g, ' ').trim());
}

let session: PlaygroundSession;
let page: Page;
const result = () => page.locator('#pg-result');
const part = (kind: string) => page.locator(`#pg-result [data-part="${kind}"]`);
const field = (label: string) => page.locator('#pg-args').getByLabel(label, { exact: true });

async function pick(value: string): Promise<void> {
  await page.locator('#pg-target').selectOption(value);
}

async function runAndWait(): Promise<void> {
  await page.locator('#pg-run').click();
  await expect.poll(() => page.locator('#pg-run').isEnabled()).toBe(true);
}

beforeAll(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  session = await openPlayground();
  page = session.page;
});

afterAll(async () => {
  await session?.close();
});

describe('the playground in Chromium', () => {
  it('calls a tool and shows the structured result, its enrichment and the markdown twin', async () => {
    await pick('tool:pg_lookup');
    await field('isbn').fill('978-0-00-000001-1');
    await field('region').fill('Zürich Süd');
    await runAndWait();
    expect(await seen(page.locator('#pg-status'))).toBe('Complete.');
    expect(JSON.parse(await seen(part('structured').locator('pre')))).toEqual({
      title: 'Kiln Firing',
      author: 'A. Potter et al.',
    });
    expect(await seen(part('enrichment'))).toContain('notice\nOnly the first author is listed (branch Zürich Süd).');
    expect(await seen(part('markdown'))).toContain('**Kiln Firing** by A. Potter et al.');
    // The wire: the 2026-07-28 headers and _meta, and the header parameter Base64-wrapped (it is not ASCII).
    const [call] = mcpRequests(session, session.serving.endpointUrl);
    expect(call?.headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'pg_lookup',
      'mcp-param-region': `=?base64?${Buffer.from('Zürich Süd').toString('base64')}?=`,
    });
    expect(call?.params._meta).toMatchObject({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'mcp-kiln-playground' },
    });
    await page.locator('#playground').screenshot({ path: `${SCREENSHOT_DIR}/playground.png` });
  });

  it("shows a failure's reason and recovery", async () => {
    await field('isbn').fill('missing');
    await field('region').fill('');
    await runAndWait();
    expect(await seen(page.locator('#pg-status'))).toBe('The tool reported an error.');
    const error = await seen(part('error'));
    for (const text of ['No book has ISBN missing.', 'Reason\nno_match', 'Code\n-32001']) expect(error).toContain(text);
    expect(error).toContain('Recovery\nSearch the shelf first and call again with an ISBN from the results.');
    expect(await part('error').getAttribute('role')).toBe('alert');
  });

  it('shows progress and log records as they stream, before the result', async () => {
    await pick('tool:pg_stream');
    await page.locator('#pg-run').click();
    const events = page.locator('#pg-events li');
    try {
      await expect.poll(() => events.count()).toBe(2);
      // The tool is held after its first step: the lines are on screen while the call is still running.
      expect(await eventLines()).toEqual(['INFO Started the job', 'Progress 1 of 3: Read the shelf']);
      expect(await result().getAttribute('aria-busy')).toBe('true');
      expect(await page.locator('#pg-stop').isEnabled()).toBe(true);
    } finally {
      streamGate.release();
    }
    await expect.poll(() => page.locator('#pg-run').isEnabled()).toBe(true);
    expect(await eventLines()).toEqual([
      'INFO Started the job',
      'Progress 1 of 3: Read the shelf',
      'WARNING Two books were damp',
      'Progress 2 of 3: Checked the books',
      'Progress 3 of 3: Done',
    ]);
    expect(await seen(part('markdown'))).toContain('Stream finished.');
  });

  it('stops a call by closing its stream, which cancels it on the server', async () => {
    await pick('tool:pg_stream');
    await page.locator('#pg-run').click();
    await expect.poll(() => eventLines()).toEqual(['INFO Started the job', 'Progress 1 of 3: Read the shelf']);
    await page.locator('#pg-stop').click();
    await expect.poll(() => streamGate.cancelled).toBe(1);
    expect(await seen(page.locator('#pg-status'))).toBe(
      'Stopped: the page closed the stream, which cancels the request.',
    );
    expect(await page.locator('#pg-run').isEnabled()).toBe(true);
  });

  it('answers an elicitation in the page, then shows the result of the next round', async () => {
    await pick('tool:pg_greet');
    await page.locator('#pg-run').click();
    const ask = page.locator('form.pg-input');
    await ask.waitFor();
    expect(await seen(ask)).toContain('Who is asking?');
    // The form is generated from requestedSchema, and focus moves to its first field.
    await page.keyboard.type('Ada');
    await ask.getByLabel('loud').check();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/playground-elicitation.png` });
    await ask.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => page.locator('#pg-run').isEnabled()).toBe(true);
    expect(await seen(page.locator('#pg-status'))).toBe('Complete after 2 rounds.');
    expect(JSON.parse(await seen(part('structured').locator('pre')))).toEqual({ greeting: 'HELLO, ADA!' });
    const rounds = mcpRequests(session, session.serving.endpointUrl).slice(-2);
    expect(rounds[0]?.params.inputResponses).toBeUndefined();
    expect(rounds[1]?.params.inputResponses).toEqual({
      who: { action: 'accept', content: { name: 'Ada', loud: true } },
    });
  });

  it('asks at a consent gate: Confirm runs the tool, Decline ends in consent_declined', async () => {
    await pick('tool:pg_clear_shelf');
    await field('shelf').fill('A3');
    await page.locator('#pg-run').click();
    const ask = page.locator('form.pg-input');
    await ask.waitFor();
    expect(await seen(ask)).toContain('Clear shelf A3?');
    expect(await ask.getByRole('button').allInnerTexts()).toEqual(['Confirm', 'Decline']);
    await ask.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('#pg-run').isEnabled()).toBe(true);
    expect(await seen(part('markdown'))).toContain('Shelf A3 cleared.');

    await page.locator('#pg-run').click();
    await page.locator('form.pg-input').getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => page.locator('#pg-run').isEnabled()).toBe(true);
    const error = await seen(part('error'));
    expect(error).toContain('Reason\nconsent_declined');
    expect(error).toContain('Recovery\n');
  });

  it('reads a fixed resource, one from a template and one by URI', async () => {
    await pick('resource:0');
    await runAndWait();
    expect(await seen(part('contents'))).toContain('pg://stats · application/json\n{"books":3}');
    await pick('template:1');
    expect(await seen(page.locator('#pg-target-doc'))).toContain('pg://items/{id}');
    await field('id').fill('x7');
    await runAndWait();
    expect(await seen(part('contents'))).toContain('pg://items/x7 · text/markdown\n# Item x7');
    await pick('uri:');
    await field('uri').fill('pg://items/z9');
    await runAndWait();
    expect(await seen(part('contents'))).toContain('pg://items/z9 · text/markdown\n# Item z9');
  });

  it('gets a prompt: arguments become messages, and markup in a description stays text', async () => {
    await pick('prompt:pg_review');
    expect(await seen(page.locator('#pg-target-doc'))).toContain('<img src=x onerror=alert(1)>');
    await field('item_id').fill('x7');
    await field('tone').fill('friendly');
    await runAndWait();
    expect(await seen(part('messages'))).toContain('User\nReview item x7 in a friendly tone.');
    expect(session.errors).toEqual([]);
  });

  it('builds forms for nested objects, arrays and unions, leaving out what is left empty', async () => {
    await pick('tool:pg_plan_order');
    await field('title').fill('Spring order');
    await field('copies').fill('2');
    await field('city').fill('Oslo');
    await field('express').check();
    // Arrays by keyboard: Add focuses the new item's first field.
    const add = page.getByRole('button', { name: 'Add an item to items' });
    for (const isbn of ['978-1', '978-2']) {
      await add.focus();
      await page.keyboard.press('Enter');
      await page.keyboard.type(isbn);
      await page.keyboard.press('Tab');
      await page.keyboard.type('1');
    }
    await page.getByRole('button', { name: 'Remove item 1 of items' }).click();
    await field('payment · method').selectOption({ label: 'invoice' });
    expect(await seen(page.locator('.pg-variant-doc'))).toBe('Pay later');
    await field('days').fill('30');
    await page.locator('#pg-args').screenshot({ path: `${SCREENSHOT_DIR}/playground-form.png` });
    await runAndWait();
    expect(JSON.parse(await seen(part('markdown').locator('pre')))).toEqual({
      title: 'Spring order',
      copies: 2,
      shipping: { city: 'Oslo', express: true },
      items: [{ isbn: '978-2', count: 1 }],
      payment: { method: 'invoice', days: 30 },
    });

    await pick('tool:pg_update');
    await field('action').selectOption({ label: 'archive' });
    await runAndWait();
    expect(JSON.parse(await seen(part('markdown').locator('pre')))).toEqual({ action: 'archive' });
  });

  it('sends what a schema rejects and shows the invalid-arguments error', async () => {
    await pick('tool:pg_plan_order');
    await field('title').fill('No copies');
    await runAndWait();
    const error = await seen(part('error'));
    expect(error).toContain('Reason\n');
    expect(error).toContain('copies');
    expect(error).toContain('Recovery\n');
  });

  it('labels every control and picks a card from its Try it button', async () => {
    const unlabelled = await page
      .locator('#playground')
      .locator('input, select, textarea, button')
      .evaluateAll((nodes) =>
        nodes
          .filter((node) => (node.labels?.length ?? 0) === 0 && !node.getAttribute('aria-label') && !node.textContent)
          .map((node) => node.outerHTML),
      );
    expect(unlabelled).toEqual([]);
    await page.getByRole('button', { name: 'Try pg_greet in the playground' }).click();
    expect(await page.locator('#pg-target').inputValue()).toBe('tool:pg_greet');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pg-target');
  });

  it('made every request to its own origin', () => {
    expect(session.foreign).toEqual([]);
    const origin = new URL(session.serving.url).origin;
    expect(session.requests.every((request) => new URL(request.url()).origin === origin)).toBe(true);
    expect(session.errors).toEqual([]);
  });
});

declare const document: { activeElement: { id: string } | null };
