// Nothing in the runtime turns on async hooks: on Node 20 an AsyncLocalStorage in use makes every promise in the
// process pay a hook (about 15% of a 2025 session request's CPU when the HTTP failure log used one). OpenTelemetry's
// context manager may still do so, but only when the application registers an SDK.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(folder, file));
}

describe('the runtime and its modules', () => {
  it('never import node:async_hooks', () => {
    const files = [...sources('src'), ...sources('modules'), ...sources('decorators')];
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((file) =>
      /['"](node:)?async_hooks['"]/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
