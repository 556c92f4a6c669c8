// The one place browser tests get Chromium from. The npm package @sparticuz/chromium ships a headless Chromium for
// linux-x64 inside its tarball, so `npm install` is all a fresh machine needs; it is inflated once per version into
// node_modules/.cache. KILN_CHROMIUM names any other Chromium binary (another platform, or a system install).
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';

const PACKAGE = '@sparticuz/chromium';
const ELSEWHERE =
  'Install Chromium and name it in KILN_CHROMIUM (on Debian: apt-get install -y chromium, then KILN_CHROMIUM=/usr/bin/chromium).';

/** Flags for headless Chromium as root on a machine whose network is closed (no background connections). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What to tell a person whose Chromium would not start. */
export const CHROMIUM_START_HINT = `If a shared library is missing, apt-get install -y libnss3 libexpat1 (Debian). ${ELSEWHERE}`;

/** The path of a Chromium binary to launch, inflating the packaged one on first use. */
export async function chromiumExecutable(): Promise<string> {
  const chosen = process.env.KILN_CHROMIUM;
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`KILN_CHROMIUM is ${chosen}, which does not exist. ${ELSEWHERE}`);
    return chosen;
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `${PACKAGE} ships Chromium for linux-x64 only, and this is ${process.platform}-${process.arch}. ${ELSEWHERE}`,
    );
  }
  // The package's main file is build/cjs/index.cjs; resolving it runs none of its code (which would write to /tmp).
  const packageRoot = join(dirname(createRequire(import.meta.url).resolve(PACKAGE)), '..', '..');
  const compressed = join(packageRoot, 'bin', 'chromium.br');
  if (!existsSync(compressed)) throw new Error(`${compressed} is missing: run npm install. ${ELSEWHERE}`);
  const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  const cacheDir = join(packageRoot, '..', '..', '.cache', 'mcp-kiln', `chromium-${version}`);
  const executable = join(cacheDir, 'chromium');
  if (existsSync(executable)) return executable;
  // Inflate beside the target and rename, so parallel test workers never launch a half-written binary.
  await mkdir(cacheDir, { recursive: true });
  const partial = `${executable}.${process.pid}.partial`;
  try {
    await pipeline(createReadStream(compressed), createBrotliDecompress(), createWriteStream(partial, { mode: 0o755 }));
    await rename(partial, executable);
  } finally {
    await rm(partial, { force: true });
  }
  return executable;
}

/** Headless Chromium, started with CHROMIUM_ARGS; a start failure says what to install. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await chromiumExecutable();
  try {
    return await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
  } catch (error) {
    throw new Error(`Chromium at ${executablePath} did not start. ${CHROMIUM_START_HINT}`, { cause: error });
  }
}
