// Runs the built `kiln` command in a child process, as a shell or CI would, and answers its exit code and output.
// The tests run what `npm run build` produced and never build themselves.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const REPO = join(import.meta.dirname, '..', '..');
/** The command package.json's `bin` installs: the bundled one, whose process runs the app it boots on its own copy. */
export const KILN_BIN = join(
  REPO,
  (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { bin: { kiln: string } }).bin.kiln,
);
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
