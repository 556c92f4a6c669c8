// `npm pack` of this repository as a user would get it, for tests that install mcp-kiln into a fresh project. It
// packs a copy of the work tree, so the package build (prepack) never touches the dist/ other tests run from.
import { execFile } from 'node:child_process';
import { cpSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const REPO = join(import.meta.dirname, '..', '..');
/** Left out of the copy that is packed: installed, built or written by other commands. */
const NOT_COPIED = new Set(['.git', 'node_modules', 'dist', 'test-output', 'coverage', '.kiln-data', 'bench/results']);

export interface PackResult {
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

export async function npm(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run('npm', [...args], { cwd, env, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${stderr ?? ''}\n${stdout ?? ''}`, { cause: error });
  }
}

/** Packs the work tree into `work` (a scratch folder the caller removes) and returns npm's report of the tarball. */
export async function packKiln(work: string): Promise<PackResult> {
  const tree = join(work, 'tree');
  cpSync(REPO, tree, { recursive: true, filter: (source) => !NOT_COPIED.has(relative(REPO, source)) });
  symlinkSync(join(REPO, 'node_modules'), join(tree, 'node_modules'), 'dir');
  const pack = await npm(['pack', '--json', '--pack-destination', work], tree);
  // With --json, npm prints prepack's output on stderr and the report alone on stdout.
  const [packed] = JSON.parse(pack.stdout) as [PackResult];
  return packed;
}
