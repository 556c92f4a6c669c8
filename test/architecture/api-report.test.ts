// Pins the public types: the report regenerated from the sources must equal the checked-in api/mcp-kiln.api.md,
// so a changed signature, a new export or a leaked internal type is a reviewed diff, never an accident.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_REPORT_PATH, renderApiReport } from '../../scripts/api-report.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The first line where the two texts differ, for a failure message that points at the change. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split('\n');
  const got = actual.split('\n');
  const line = want.findIndex((text, index) => text !== got[index]);
  const at = line === -1 ? want.length : line;
  return `line ${at + 1}: checked in ${JSON.stringify(want[at] ?? '<end>')}, now ${JSON.stringify(got[at] ?? '<end>')}`;
}

describe('API report', () => {
  let report: string;
  beforeAll(() => {
    report = renderApiReport(root);
  });

  it('matches the checked-in api/mcp-kiln.api.md', () => {
    const checkedIn = readFileSync(join(root, API_REPORT_PATH), 'utf8');
    const message =
      `The public API changed (${firstDifference(checkedIn, report)}). Run \`npm run api:report\` and review the ` +
      `diff of ${API_REPORT_PATH}: commit it if the change is intended.`;
    expect(report === checkedIn, message).toBe(true);
  });

  it('has one section per package.json exports entry', () => {
    const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: object };
    const entries = Object.keys(exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? 'mcp-kiln' : `mcp-kiln/${subpath.slice(2)}`));
    expect([...report.matchAll(/^## `(.+)`$/gm)].map((match) => match[1])).toEqual(entries);
  });

  it('leaves out @internal members', () => {
    const kilnApp = /^class KilnApp [\s\S]*?^}$/m.exec(report)?.[0] ?? '';
    expect(kilnApp).toContain('close(signal?: string): Promise<void>;');
    expect(kilnApp).not.toContain('runtime');
    expect(report).not.toContain('AppRuntime');
  });
});
