// The settings reference (docs/reference/settings.md) names every environment variable the runtime and its modules
// read, so a new setting cannot ship undocumented.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every setting name in backticks; `A_B_C` / `_D` names A_B_D too (a row for a pair of settings). */
function documentedSettings(page: string): Set<string> {
  const names = new Set<string>();
  for (const match of page.matchAll(/`([A-Z][A-Z0-9_]+)`((?: \/ `_[A-Z0-9_]+`)*)/g)) {
    const name = match[1] as string;
    names.add(name);
    for (const suffix of (match[2] ?? '').matchAll(/`(_[A-Z0-9_]+)`/g)) {
      const tail = suffix[1] as string;
      const kept = name.split('_').slice(0, -(tail.split('_').length - 1));
      names.add(`${kept.join('_')}${tail}`);
    }
  }
  return names;
}

describe('the settings reference', () => {
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  const settings = documentedSettings(read('docs/reference/settings.md'));

  it('names every setting the runtime and its modules read', () => {
    const files = ['src/config', 'src/bootstrap', 'modules'].flatMap(sources);
    const used = new Set(
      files.flatMap((file) =>
        [...read(file).matchAll(/'((?:MCP|STORAGE|REDIS|OAUTH)_[A-Z0-9_]+)'/g)].map((match) => match[1] as string),
      ),
    );
    expect(used.size).toBeGreaterThan(60);
    expect([...used].filter((name) => !settings.has(name)).sort()).toEqual([]);
  });

  it('reads a pair of settings in one row', () => {
    const pair = documentedSettings('| `OAUTH_INTROSPECTION_CLIENT_ID` / `_SECRET` | the credentials |');
    expect([...pair].sort()).toEqual(['OAUTH_INTROSPECTION_CLIENT_ID', 'OAUTH_INTROSPECTION_CLIENT_SECRET']);
  });
});
