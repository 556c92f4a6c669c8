// Code caching the standard way: the kiln command turns on Node's compile cache (module.enableCompileCache, Node
// 22.1+) in its own process, into the folder Node picks (under the temp directory unless NODE_COMPILE_CACHE says
// otherwise); on a Node without it nothing is cached and the command runs as well. The kiln new template's main.ts
// turns it on before the app's modules load.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KILN_BIN, REPO } from './run-kiln.js';

const scratch = mkdtempSync(join(tmpdir(), 'kiln-compile-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Whether this Node has the call (the suite runs on Node 20, 22 and 24). */
const nodeHasIt = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function runInspect(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [KILN_BIN, 'inspect', 'dist/examples/notes/notes.module.js'],
      { cwd: REPO, env, timeout: 60_000 },
      (_error, stdout) => resolve({ code: child.exitCode, stdout }),
    );
  });
}

/** Every file under `folder`, recursively. */
const filesUnder = (folder: string): string[] =>
  existsSync(folder)
    ? readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];

describe('the compile cache', () => {
  it(`is written by the kiln command ${nodeHasIt ? 'on this Node' : '— not on this Node, which has no such call'}`, async () => {
    const { NODE_COMPILE_CACHE: _, ...inherited } = process.env;
    const temp = join(scratch, 'tmp');
    const run = await runInspect({ ...inherited, TMPDIR: temp, TMP: temp, TEMP: temp });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('notes_create_note');
    const cached = filesUnder(join(temp, 'node-compile-cache'));
    if (nodeHasIt) expect(cached.length).toBeGreaterThan(0);
    else expect(cached).toEqual([]);
  });

  it("is turned on by the kiln new template's main.ts before the app's modules load", () => {
    const main = readFileSync(join(REPO, 'templates', 'new-project', 'src', 'main.ts'), 'utf8');
    const enabled = main.indexOf('enableCompileCache?.()');
    expect(enabled).toBeGreaterThan(0);
    // Static imports would load before the call: the app's modules come in by dynamic import after it.
    expect(main.slice(0, enabled)).not.toMatch(/from 'mcp-kiln'|from '\.\/app\.module\.js'/);
    expect(main.slice(enabled)).toContain("await import('mcp-kiln')");
  });
});
