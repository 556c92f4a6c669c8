// Runs the built `kiln` command in a child process, as a shell or CI would, and answers its exit code and output.
// The tests run what `npm run build` produced and never build themselves.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const REPO = join(import.meta.dirname, '..', '..');
export const KILN_BIN = join(REPO, 'dist', 'src', 'cli', 'main.js');
/** The built test fixtures, by file name without extension. */
export const fixture = (name: string) => join('dist', 'test', 'cli', 'fixtures', `${name}.js`);

export interface KilnRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function runKiln(args: readonly string[], cwd = REPO): Promise<KilnRun> {
  if (!existsSync(KILN_BIN)) throw new Error(`${KILN_BIN} does not exist: run npm run build first.`);
  return new Promise((done) => {
    execFile(process.execPath, [KILN_BIN, ...args], { cwd, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = (error as { code?: unknown } | null)?.code;
      done({ exitCode: typeof code === 'number' ? code : error ? -1 : 0, stdout, stderr });
    });
  });
}
