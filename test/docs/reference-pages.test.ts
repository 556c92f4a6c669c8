// The settings reference is generated from src/config/settings-catalog.ts, and the catalog is exactly what the code
// reads: a setting cannot ship undocumented, and the page cannot list one that is gone.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authFallbacks } from '../../modules/auth/auth-config.js';
import { settingsMarkdown } from '../../scripts/settings-markdown.mjs';
import { configFallbacks } from '../../src/config/kiln-config.js';
import { AUTH_SETTINGS, GENERAL_SETTINGS } from '../../src/config/settings-catalog.js';

const root = join(import.meta.dirname, '..', '..');
const fallbacks = new Map([...configFallbacks(), ...authFallbacks()]);
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
    expect(read('docs/reference/settings.md')).toBe(settingsMarkdown(GENERAL_SETTINGS, AUTH_SETTINGS, fallbacks));
  });

  it('takes each default the code passes from the code, never writing it a second time in the catalog', () => {
    const written = [...GENERAL_SETTINGS, ...AUTH_SETTINGS].filter(
      (entry) => entry.default !== undefined && entry.names.every((name) => fallbacks.has(name)),
    );
    // Only defaults the code derives or chooses at run time, which its fallback alone would misstate.
    expect(written.map((entry) => entry.names.join(' / '))).toEqual([
      'MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL',
      'MCP_HTTP_MAX_LISTEN_STREAMS_PER_PRINCIPAL',
      'MCP_PLAYGROUND',
      'MCP_TASKS_MAX_PER_SUBJECT',
    ]);
  });

  it('has a default for every setting, from the code or written where the code has none to pass', () => {
    const missing = [...GENERAL_SETTINGS, ...AUTH_SETTINGS].filter(
      (entry) => entry.default === undefined && !entry.names.every((name) => fallbacks.has(name)),
    );
    expect(missing.map((entry) => entry.names.join(' / '))).toEqual([]);
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
