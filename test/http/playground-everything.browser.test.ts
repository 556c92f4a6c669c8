// The playground over the conformance "everything" server: every tool, resource, template and prompt it serves gets
// a form without a page error, and a raw JSON Schema 2020-12 input ($ref to an $anchor'd $defs entry, allOf/anyOf
// constraints, if/then/else) becomes fields, not a variant picker, and reaches the server; elicitation forms start at
// their defaults (SEP-1034) and offer every enum shape (SEP-1330).
import { createTestingModule } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EverythingModule } from '../../examples/everything/everything.module.js';
import { openPlayground, type PlaygroundSession } from './helpers/playground-page.js';

let session: PlaygroundSession;

beforeAll(async () => {
  session = await openPlayground({}, {}, (env) =>
    createTestingModule({ imports: [EverythingModule] }).compile({ env }),
  );
});
afterAll(() => session?.close());

describe('the playground over the everything server', () => {
  it('builds a form for everything it serves', async () => {
    const { page } = session;
    const targets = await page.locator('#pg-target option').evaluateAll((options) => options.map((o) => o.value));
    expect(targets.length).toBeGreaterThan(30);
    for (const target of targets) {
      await page.locator('#pg-target').selectOption(target);
      await expect(page.locator('#pg-args .pg-fields').count()).resolves.toBe(1);
    }
    expect(session.errors).toEqual([]);
  });

  it('turns a raw 2020-12 schema into fields and sends what was filled in', async () => {
    const { page } = session;
    await page.locator('#pg-target').selectOption('tool:json_schema_2020_12_tool');
    const args = page.locator('#pg-args');
    await expect(args.locator('select').count()).resolves.toBe(1); // contactMethod; the anyOf constraint is no picker
    await args.getByLabel('name', { exact: true }).fill('Ada');
    await args.getByLabel('Include address').check();
    await args.getByLabel('city', { exact: true }).fill('Oslo');
    await args.getByLabel('contactMethod', { exact: true }).selectOption('phone');
    await args.getByLabel('phone', { exact: true }).fill('+47 555');
    await page.locator('#pg-run').click();
    await page.locator('#pg-result [data-part="markdown"]').waitFor();
    expect(await page.locator('#pg-result [data-part="markdown"] pre').textContent()).toBe(
      'Contact Ada by phone +47 555.',
    );
    expect(session.errors).toEqual([]);
  });

  it('starts an elicitation form at its defaults, and sends them back as answered', async () => {
    const { page } = session;
    await page.locator('#pg-target').selectOption('tool:test_elicitation_sep1034_defaults');
    await page.locator('#pg-run').click();
    const ask = page.locator('form.pg-input');
    await ask.waitFor();
    expect(await ask.getByLabel('name', { exact: true }).inputValue()).toBe('John Doe');
    await ask.getByLabel('age', { exact: true }).fill('31');
    await ask.getByRole('button', { name: 'Submit' }).click();
    await page.locator('#pg-result [data-part="markdown"]').waitFor();
    expect(await page.locator('#pg-result [data-part="markdown"] pre').textContent()).toBe(
      'Elicitation completed: action=accept, content=' +
        '{"name":"John Doe","age":31,"score":95.5,"status":"active","verified":true}',
    );
  });

  it('offers every enum shape of an elicitation: titled, legacy enumNames, and multi-selects', async () => {
    const { page } = session;
    await page.locator('#pg-target').selectOption('tool:test_elicitation_sep1330_enums');
    await page.locator('#pg-run').click();
    const ask = page.locator('form.pg-input');
    await ask.waitFor();
    await ask.getByLabel('untitledSingle', { exact: true }).selectOption({ label: 'option2' });
    await ask.getByLabel('titledSingle', { exact: true }).selectOption({ label: 'Second Option' });
    await ask.getByLabel('legacyEnum', { exact: true }).selectOption({ label: 'Option Three' });
    await ask.getByLabel('option1', { exact: true }).check();
    await ask.getByLabel('First Choice', { exact: true }).check();
    await ask.getByLabel('Third Choice', { exact: true }).check();
    await ask.getByRole('button', { name: 'Submit' }).click();
    await page.locator('#pg-result [data-part="markdown"]').waitFor();
    expect(await page.locator('#pg-result [data-part="markdown"] pre').textContent()).toBe(
      'Elicitation completed: action=accept, content=' +
        '{"untitledSingle":"option2","titledSingle":"value2","legacyEnum":"opt3",' +
        '"untitledMulti":["option1"],"titledMulti":["value1","value3"]}',
    );
    expect(session.errors).toEqual([]);
  });
});
