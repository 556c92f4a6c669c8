// The settings reference is generated from src/config/settings-catalog.ts, and the catalog is exactly what the code
// reads: a setting cannot ship undocumented, and the page cannot list one that is gone.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsMarkdown } from '../../scripts/settings-markdown.mjs';
import { AUTH_SETTINGS, GENERAL_SETTINGS } from '../../src/config/settings-catalog.js';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('settings-catalog.ts') ? [path] : [];
  });
}

describe('the settings reference', () => {
  it('is what the settings catalog says (npm run docs:reference after a change)', () => {
    expect(read('docs/reference/settings.md')).toBe(settingsMarkdown(GENERAL_SETTINGS, AUTH_SETTINGS));
  });

  it('lists exactly the settings the runtime and its modules read', () => {
    const files = ['src/config', 'src/bootstrap', 'modules'].flatMap(sources);
    const used = new Set(
      files.flatMap((file) =>
        [...read(file).matchAll(/'((?:MCP|STORAGE|REDIS|OAUTH)_[A-Z0-9_]+)'/g)].map((match) => match[1] as string),
      ),
    );
    const listed = new Set([...GENERAL_SETTINGS, ...AUTH_SETTINGS].flatMap((entry) => entry.names));
    expect(used.size).toBeGreaterThan(60);
    expect([...used].filter((name) => !listed.has(name)).sort()).toEqual([]);
    expect([...listed].filter((name) => !used.has(name)).sort()).toEqual([]);
  });
});
